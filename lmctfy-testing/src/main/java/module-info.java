/**
 * lmctfy for Java: test support. FakeCgroupFs, the CgroupFs contract suite, JUnit 5 and AssertJ
 * helpers.
 */
module org.lmctfy.testing {
  requires transitive org.lmctfy;
  requires com.sun.jna; // contract.ContractBackend.host().asUser: one thread's credentials
  requires static org.junit.jupiter.api;
  requires static org.junit.jupiter.params; // the contract suites' rows
  requires static org.junit.platform.commons;
  requires static org.assertj.core;

  exports org.lmctfy.testing;
  exports org.lmctfy.testing.contract;
  exports org.lmctfy.testing.junit;
}
