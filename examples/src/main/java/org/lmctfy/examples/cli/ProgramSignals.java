package org.lmctfy.examples.cli;

import com.sun.jna.LastErrorException;
import com.sun.jna.Native;
import com.sun.jna.Platform;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.lmctfy.ContainerProcess;
import org.lmctfy.cgroupfs.Errno;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * The signals {@code lmctfy run} gets while it waits for its program go to the program, so that
 * {@code kill}, {@code timeout} or a supervisor stopping lmctfy stops the program as if they had
 * signalled it, and lmctfy exits with what the program made of it. Installed before the program
 * starts (a signal that comes before it has started goes to it once it has), put back on {@link
 * #close()}.
 *
 * <ul>
 *   <li>TERM and HUP always go to the program.
 *   <li>INT goes to it unless lmctfy runs in the foreground process group of its terminal: there
 *       Ctrl-C has reached the program already (the program stays in lmctfy's process group), and a
 *       second SIGINT would make a program that takes a second Ctrl-C as "stop now" skip its
 *       clean-up. An INT sent to that lmctfy by pid alone is then not passed on.
 *   <li>QUIT cannot be: HotSpot keeps SIGQUIT for its thread dump and lets no Java code handle it
 *       ({@link Signal#handle} refuses it, also under {@code -Xrs}, which takes INT, TERM and HUP
 *       away as well). Ctrl-\ at the terminal reaches the program itself.
 *   <li>SIGKILL of lmctfy cannot be caught: the program goes on in its container, a child of init
 *       (or of the nearest subreaper); {@code lmctfy killall <name>} ends it.
 * </ul>
 *
 * <p>Why {@link Signal} (module jdk.unsupported, in every JDK from 9 on): the JVM runs its handler
 * on a Java thread of its own, outside the signal's context, where any code may run; a native
 * {@code sigaction} through JNA would run Java code inside the signal handler, which is not safe,
 * and the JVM would take the signals back. A signal goes on by the backend's {@link Sender}: on the
 * host, {@link #kill}: kill(2) through JNA (the JDK itself sends only TERM and KILL); a fake sends
 * none.
 */
final class ProgramSignals implements AutoCloseable {
  /** The signals passed on, as {@link Signal} and {@code kill -s} name them. */
  static final List<String> FORWARDED = List.of("INT", "TERM", "HUP");

  /** Sends a signal to a process of the backend. */
  @FunctionalInterface
  interface Sender {
    /**
     * Sends {@code signal} ({@code "TERM"}) to {@code pid}.
     *
     * @throws IOException naming what refused
     */
    void send(long pid, String signal) throws IOException;
  }

  private final Sender sender;
  private final PrintStream err;
  private final boolean terminalInterrupts;
  private final Map<Signal, SignalHandler> previous = new LinkedHashMap<>();
  private final List<String> pending = new ArrayList<>(); // guarded by this
  private ContainerProcess program; // guarded by this

  private ProgramSignals(Sender sender, PrintStream err, boolean terminalInterrupts) {
    this.sender = sender;
    this.err = err;
    this.terminalInterrupts = terminalInterrupts;
  }

  /**
   * Takes INT, TERM and HUP for the program until {@link #close()}. One the JVM keeps (under {@code
   * -Xrs}) stays the JVM's, and {@code err} says so; one that is ignored (under {@code nohup})
   * stays ignored, by lmctfy and the program alike. A failure to pass one on goes to {@code err}.
   */
  static ProgramSignals install(Sender sender, PrintStream err) {
    ProgramSignals signals = new ProgramSignals(sender, err, inTerminalForeground());
    for (String name : FORWARDED) {
      Signal signal = new Signal(name);
      try {
        signals.previous.put(signal, Signal.handle(signal, signals::received));
      } catch (IllegalArgumentException kept) {
        err.println("lmctfy: SIG" + name + " will not reach the program: " + kept.getMessage());
        err.flush();
      }
    }
    return signals;
  }

  /** The program has started: a signal that came before goes to it now. */
  synchronized void started(ContainerProcess p) {
    program = p;
    for (String name : pending) {
      forward(name);
    }
    pending.clear();
  }

  /** On the JVM's thread for {@code signal}. */
  private synchronized void received(Signal signal) {
    String name = signal.getName();
    if (name.equals("INT") && terminalInterrupts) {
      return; // the terminal sent it to the program too (see the class comment)
    }
    if (program == null) {
      pending.add(name);
    } else {
      forward(name);
    }
  }

  private void forward(String name) {
    if (program.exitCode().isPresent()) {
      return; // it has ended (and been reaped): its pid may be another process's by now
    }
    try {
      sender.send(program.pid(), name);
    } catch (IOException e) {
      err.println(
          "lmctfy: SIG"
              + name
              + " could not be passed on to the program (pid "
              + program.pid()
              + "): "
              + e.getMessage());
      err.flush();
    }
  }

  /** Puts back the handlers that were there. */
  @Override
  public void close() {
    for (Map.Entry<Signal, SignalHandler> e : previous.entrySet()) {
      Signal.handle(e.getKey(), e.getValue());
    }
    previous.clear();
  }

  /**
   * Whether this process is in the foreground process group of a controlling terminal ({@code
   * tty_nr} and {@code tpgid} of {@code /proc/self/stat}), where the terminal's Ctrl-C reaches it
   * and its program alike. False where that cannot be read.
   */
  static boolean inTerminalForeground() {
    String stat;
    try {
      stat = Files.readString(Path.of("/proc/self/stat"), StandardCharsets.US_ASCII);
    } catch (IOException e) {
      return false; // no /proc: then INT goes on too, and a Ctrl-C may reach the program twice
    }
    return inTerminalForeground(stat);
  }

  /** {@link #inTerminalForeground()} of a {@code /proc/<pid>/stat} line. */
  static boolean inTerminalForeground(String stat) {
    // pid (comm) state ppid pgrp session tty_nr tpgid ...; comm may hold spaces and parentheses
    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    long pgrp = Long.parseLong(f[2]);
    long ttyNr = Long.parseLong(f[4]);
    long tpgid = Long.parseLong(f[5]);
    return ttyNr != 0 && tpgid == pgrp;
  }

  /**
   * The signal numbers {@link #FORWARDED} names, as Linux has them on every architecture Java runs
   * on.
   */
  private static int number(String signal) {
    return switch (signal) {
      case "HUP" -> 1;
      case "INT" -> 2;
      case "TERM" -> 15;
      default -> throw new IllegalArgumentException("not a signal lmctfy passes on: " + signal);
    };
  }

  /**
   * The host's way to signal a process: kill(2), through JNA (loaded at the first signal, so a run
   * that gets none pays nothing for it).
   *
   * @throws IOException naming the errno when the kernel refuses
   */
  static void kill(long pid, String signal) throws IOException {
    try {
      Libc.kill((int) pid, number(signal));
    } catch (LastErrorException e) {
      throw new IOException(
          "kill(" + pid + ", SIG" + signal + "): " + Errno.of(e.getErrorCode()), e);
    }
  }

  /** kill(2) of libc. */
  private static final class Libc {
    static {
      Native.register(Platform.C_LIBRARY_NAME);
    }

    static native int kill(int pid, int signal) throws LastErrorException;
  }
}
