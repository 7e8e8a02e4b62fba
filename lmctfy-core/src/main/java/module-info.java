/**
 * lmctfy for Java: creates, limits, runs, measures, freezes and destroys Linux containers (sets of
 * cgroups with one name), on cgroup v1, v2 and hybrid machines, the successor of Google's lmctfy.
 * No operation leaves state that needs a person: a failed or interrupted create or destroy is
 * undone or finished by the next call, or by {@link org.lmctfy.ContainerApi#cleanup()}.
 *
 * <p>Start at {@link org.lmctfy.ContainerApi}:
 *
 * <pre>{@code
 * try (ContainerApi api = ContainerApi.open()) {
 *   ContainerSpec spec = ContainerSpec.parse("cpu { max_limit: 500 } memory { limit: 256M }");
 *   try (ResourceHandle<Container> handle = api.createHandle("/job", spec)) {
 *     ContainerProcess p = handle.get().run(List.of("/usr/bin/make"), RunSpec.inherit());
 *     System.out.println("make exited " + p.waitFor());
 *   }                                            // not committed: the container is destroyed
 * }
 * }</pre>
 *
 * <ul>
 *   <li>{@link org.lmctfy} - the facade: {@code ContainerApi}, {@code Container}, {@code
 *       ResourceHandle}, {@code LmctfyException} with lmctfy's {@code ErrorCode}s.
 *   <li>{@link org.lmctfy.spec} - the values: {@code ContainerSpec} and its sections in lmctfy's
 *       text format or JSON, {@code RunSpec}, {@code EventSpec}, {@code ContainerStats}.
 *   <li>{@link org.lmctfy.cgroupfs} - the SPI under the facade: {@code CgroupFs}, the kernel's or
 *       the in-memory fake of {@code lmctfy-testing} for tests.
 *   <li>{@link org.lmctfy.vhost} - the SPI of virtual hosts that a {@code CgroupFs} may offer.
 *   <li>{@link org.lmctfy.systemdbus} - the SPI of systemd's D-Bus API for the systemd driver,
 *       which {@code lmctfy-systemd} implements.
 * </ul>
 *
 * <p>Every failure is an unchecked {@link org.lmctfy.LmctfyException} with a status code and a
 * message naming the container, the field or file, the value and the errno. Logging is through
 * SLF4J: DEBUG for every kernel write and each decision, INFO when a wait passes a second.
 */
module org.lmctfy {
  requires com.fasterxml.jackson.databind;
  requires org.slf4j;
  requires com.sun.jna;
  // Annotations only: static, as nothing reads them at run time; transitive, so that a module
  // compiled against this one sees @Nullable and @NullMarked on the types it uses.
  requires static transitive org.jspecify;
  // JDK Flight Recorder's events (internal.jfr): part of every JDK 17 image, and not static, so
  // that a modular application resolves it and its recordings see the events (a jlink image needs
  // --add-modules jdk.jfr). No export: JFR opens an event class's package to itself.
  requires jdk.jfr;

  exports org.lmctfy;
  exports org.lmctfy.spec;
  exports org.lmctfy.cgroupfs;
  exports org.lmctfy.vhost;
  exports org.lmctfy.systemdbus;

  // The systemd driver's D-Bus side: lmctfy-systemd provides it, found when present.
  uses org.lmctfy.systemdbus.SystemdConnector;

  // The codec does not need it: for callers who bind the spec records with their own mapper, which
  // binds them as the codec does (PlainObjectMapperTest).
  opens org.lmctfy.spec to
      com.fasterxml.jackson.databind;
}
