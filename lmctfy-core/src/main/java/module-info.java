/** lmctfy for Java: the library. Exports the facade, the spec model and the CgroupFs SPI. */
module org.lmctfy {
  requires com.fasterxml.jackson.databind;
  requires org.slf4j;
  requires com.sun.jna;

  exports org.lmctfy;
  exports org.lmctfy.spec;
  exports org.lmctfy.cgroupfs;
  // Not API: the launcher's tests run it with each shell that can be /bin/sh.
  exports org.lmctfy.internal.process to org.lmctfy.testing;
  // Not API: the lock and trust tests drive locks and the lifecycle with short deadlines.
  exports org.lmctfy.internal.lock to org.lmctfy.testing;
  exports org.lmctfy.internal.naming to org.lmctfy.testing;
  exports org.lmctfy.internal.lifecycle to org.lmctfy.testing;

  // The codec no longer needs it; kept for callers who bind the spec records with their own mapper.
  opens org.lmctfy.spec to com.fasterxml.jackson.databind;
}
