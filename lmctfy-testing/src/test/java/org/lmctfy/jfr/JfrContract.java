package org.lmctfy.jfr;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import jdk.jfr.EventType;
import jdk.jfr.FlightRecorder;
import jdk.jfr.Recording;
import jdk.jfr.SettingDescriptor;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.lmctfy.Container;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.spec.EventSpec;
import org.lmctfy.support.ApiOnScratch;
import org.lmctfy.testing.contract.ContractBackend;

/**
 * The library's JDK Flight Recorder events, read back by a RecordingStream or from a recording's
 * file, on a backend: the periodic statistics of the containers the API handles, each destroy, and
 * the events its notifications find (the backend's subclass raises an OOM).
 */
abstract class JfrContract extends ApiOnScratch {
  static final long LIMIT = 64L << 20;
  static final ContainerSpec LIMITED =
      ContainerSpec.parse("memory { limit: " + LIMIT + " swap_limit: " + LIMIT + " }");

  /**
   * The container of each case, named apart from every other test's: an API another test left open
   * in this JVM records the statistics of its own {@code /job} too (events name a container as its
   * API does). Short: a JFR stream may hand over a string of more than 16 characters, which a
   * recording keeps in its string pool, before that pool, as null (JDK 17 seen here).
   */
  static final String JOB = "/jfr-" + Integer.toHexString((int) (System.nanoTime() & 0xffff));

  private final ContractBackend backend;

  JfrContract(ContractBackend backend) {
    super(backend);
    this.backend = backend;
  }

  /** Makes the memory of {@code job} run out, as the kernel would: its OOM killer runs in it. */
  abstract void runOutOfMemory(Container job) throws Exception;

  @Test
  void aRecordingReadsTheStatisticsOfEachContainerTheApiHandles() throws Exception {
    try (Recorded r = Recorded.start()) {
      api.create(JOB, LIMITED);
      long pid = backend.startProcess(fs);
      try {
        api.get(JOB).enter(List.of(pid));
        RecordedEvent s =
            r.next(
                Recorded.STATISTICS,
                // tasks: 1 once the process is in, or N/A where its pids controller is not
                // enabled (v2: the spec sets no pids limit)
                e ->
                    JOB.equals(e.getString("container"))
                        && (e.getLong("tasks") == 1 || e.getLong("tasks") == Long.MIN_VALUE));
        assertThat(s.getLong("memoryLimit")).isEqualTo(LIMIT);
        assertThat(s.getLong("memoryUsage")).isNotNegative();
        assertThat(s.getLong("cpuTime")).isNotNegative();
      } finally {
        backend.stopProcess(fs, pid);
      }
    }
  }

  @Test
  void theStatisticsAreOffByDefaultWithAPeriodOfTenSeconds() throws Exception {
    try (Recorded r = Recorded.start()) {
      api.create(JOB, LIMITED);
      r.next(Recorded.STATISTICS, JOB); // registered with JFR by now
    }
    EventType type =
        FlightRecorder.getFlightRecorder().getEventTypes().stream()
            .filter(t -> t.getName().equals(Recorded.STATISTICS))
            .findFirst()
            .orElseThrow();
    Map<String, String> defaults =
        type.getSettingDescriptors().stream()
            .collect(
                Collectors.toMap(SettingDescriptor::getName, SettingDescriptor::getDefaultValue));
    assertThat(defaults).containsEntry("enabled", "false").containsEntry("period", "10 s");
  }

  @Test
  void aDestroyIsInTheRecordingsFileWithWhatTheContainerUsed() throws Exception {
    Path file = Files.createTempFile("lmctfy-jfr", ".jfr");
    try (Recording recording = new Recording()) {
      recording.enable(Recorded.DESTROY);
      recording.start();
      api.create(JOB, LIMITED);
      api.create(JOB + "/task", ContainerSpec.empty());
      api.destroy(JOB);
      recording.stop();
      recording.dump(file);
      List<RecordedEvent> events = RecordingFile.readAllEvents(file);
      assertThat(events)
          .filteredOn(e -> e.getEventType().getName().equals(Recorded.DESTROY))
          .extracting(e -> e.getString("container"))
          .containsExactly(JOB);
      RecordedEvent d = events.get(0);
      assertThat(d.getLong("memoryUsage")).isNotNegative();
      assertThat(d.getLong("cpuTime")).isNotNegative();
      assertThat(d.getDuration()).isPositive();
    } finally {
      Files.deleteIfExists(file);
    }
  }

  @Test
  void anOomAndAnEmptyingAreEventsWithTheContainersFigures() throws Exception {
    try (Recorded r = Recorded.start()) {
      Container job = api.create(JOB, LIMITED);
      long oomId = job.registerNotification(EventSpec.oom(), n -> {});
      long pid = backend.startProcess(fs);
      long emptyId;
      try {
        job.enter(List.of(pid));
        // registered while populated: its exit is the event (not a change too quick to see)
        emptyId = job.registerNotification(EventSpec.containerEmpty(), n -> {});
      } finally {
        backend.stopProcess(fs, pid);
      }
      RecordedEvent empty = r.next(Recorded.EMPTY, JOB);
      assertThat(empty.getLong("registration")).isEqualTo(emptyId);
      runOutOfMemory(job);
      RecordedEvent oom = r.next(Recorded.OOM, JOB);
      assertThat(oom.getLong("registration")).isEqualTo(oomId);
      assertThat(oom.getLong("memoryLimit")).isEqualTo(LIMIT);
      assertThat(oom.getLong("memoryUsage")).isNotNegative();
    }
  }
}
