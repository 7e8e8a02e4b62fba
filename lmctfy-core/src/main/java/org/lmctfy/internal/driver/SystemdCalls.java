package org.lmctfy.internal.driver;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.systemdbus.SystemdException;
import org.lmctfy.systemdbus.SystemdManager;

/**
 * The systemd driver's calls: the D-Bus error of each failure turned into lmctfy's status with the
 * unit, the error name and the remedy (one table, here), and the wait for a job's {@code
 * JobRemoved}, subscribed before the call that queues the job so that an early signal is kept.
 */
final class SystemdCalls {
  private SystemdCalls() {}

  /** polkit's refusal of another user's call to PID 1, said so. */
  static final String ONLY_ROOT =
      "only root may ask the system manager for a unit; lmctfy run by another user"
          + " asks that user's own manager (its default), which needs no privilege";

  /**
   * What {@code what} (a verb phrase: "start the unit lmctfy.service") failed of, as lmctfy's
   * status: the error name decides the code, the message names the manager and the remedy.
   */
  static LmctfyException failure(String what, Where where, SystemdException e, Duration timeout) {
    String name = e.errorName();
    ErrorCode code;
    String remedy;
    switch (name) {
      case SystemdException.ACCESS_DENIED, SystemdException.INTERACTIVE_AUTHORIZATION_REQUIRED -> {
        code = ErrorCode.PERMISSION_DENIED;
        remedy = ONLY_ROOT;
      }
      case SystemdException.NO_REPLY -> {
        code = ErrorCode.DEADLINE_EXCEEDED;
        remedy =
            "systemd did not answer within "
                + timeout
                + " (ApiOptions.systemdTimeout); a busy manager may answer"
                + " later: try again, or wait longer";
      }
      case SystemdException.NO_SERVER,
          "org.freedesktop.DBus.Error.ServiceUnknown",
          "org.freedesktop.DBus.Error.FileNotFound" -> {
        code = ErrorCode.FAILED_PRECONDITION;
        remedy = where.noManagerRemedy();
      }
      case SystemdException.DISCONNECTED -> {
        code = ErrorCode.UNAVAILABLE;
        remedy =
            "the connection went away (the manager restarted, or stopped: "
                + where.noManagerRemedy()
                + "); the next call connects again";
      }
      case SystemdException.UNIT_EXISTS -> {
        code = ErrorCode.ALREADY_EXISTS;
        remedy = "another unit has that name: choose another with ApiOptions.systemdUnit";
      }
      case SystemdException.NO_SUCH_UNIT -> {
        code = ErrorCode.NOT_FOUND;
        remedy = "the manager has no such unit loaded";
      }
      case SystemdException.UNKNOWN_PROPERTY, "org.freedesktop.DBus.Error.PropertyReadOnly" -> {
        code = ErrorCode.UNIMPLEMENTED;
        remedy =
            "this systemd ("
                + where.version()
                + ") does not know a property lmctfy sets (it needs 252 or later)";
      }
      case SystemdException.INVALID_ARGS -> {
        code = ErrorCode.INVALID_ARGUMENT;
        remedy = "the manager refused an argument lmctfy gave";
      }
      default -> {
        code = ErrorCode.UNKNOWN;
        remedy = "see what the manager logged: " + where.journalctl();
      }
    }
    return new LmctfyException(
        code, what + " through " + where + ": " + e.getMessage() + "; " + remedy, e);
  }

  /**
   * Which manager, for messages: its scope, the user's uid, its address once connected, its
   * version.
   */
  interface Where {
    String noManagerRemedy();

    String version();

    String journalctl();
  }

  /** The JobRemoved signals of one manager, kept from before a call until the job's arrives. */
  static final class JobWait implements AutoCloseable {
    private final BlockingQueue<SystemdManager.JobRemoved> seen = new LinkedBlockingQueue<>();
    private final AutoCloseable subscription;

    JobWait(SystemdManager manager) throws IOException {
      this.subscription = manager.onJobRemoved(seen::add);
    }

    /**
     * The result of {@code job} ({@code done}, {@code failed}...), or null if its JobRemoved did
     * not come by {@code deadlineNanos} ({@link System#nanoTime()}).
     */
    String await(String job, long deadlineNanos) {
      try {
        while (true) {
          long left = deadlineNanos - System.nanoTime();
          SystemdManager.JobRemoved r =
              left <= 0 ? seen.poll() : seen.poll(left, TimeUnit.NANOSECONDS);
          if (r == null) {
            return null;
          }
          if (r.job().equals(job)) {
            return r.result();
          }
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new LmctfyException(
            ErrorCode.ABORTED, "interrupted while waiting for systemd's job " + job, e);
      }
    }

    @Override
    public void close() {
      try {
        subscription.close();
      } catch (Exception e) {
        // the connection is going or gone: no more signals come either way
        org.slf4j.LoggerFactory.getLogger(SystemdCalls.class)
            .debug("ending a JobRemoved subscription: {}", e.toString());
      }
    }
  }
}
