// A test double of LevelDB under the name hadoop-client-minicluster relocates it to (the jar leaves
// LevelDB out: leveldbjni's JNI cannot be relocated), so that a NodeManager in lmctfy-yarn's crash
// test has its recovery store: a sorted map kept in one file, rewritten whole at each write (the
// store of one test NodeManager holds a few hundred keys). Only what NMLeveldbStateStoreService and
// LeveldbIterator call. See org.lmctfy.yarn.KernelYarnRecoveryTest.
package org.apache.hadoop.shaded.org.iq80.leveldb;

public class DBException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public DBException(String message, Throwable cause) {
    super(message, cause);
  }
}
