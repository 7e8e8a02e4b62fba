// A test double of LevelDB under the name hadoop-client-minicluster relocates it to (the jar leaves
// LevelDB out: leveldbjni's JNI cannot be relocated), so that a NodeManager in lmctfy-yarn's crash
// test has its recovery store: a sorted map kept in one file, rewritten whole at each write (the
// store of one test NodeManager holds a few hundred keys). Only what NMLeveldbStateStoreService and
// LeveldbIterator call. See org.lmctfy.yarn.KernelYarnRecoveryTest.
package org.apache.hadoop.shaded.org.fusesource.leveldbjni;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import org.apache.hadoop.shaded.org.fusesource.leveldbjni.internal.NativeDB;
import org.apache.hadoop.shaded.org.iq80.leveldb.DB;
import org.apache.hadoop.shaded.org.iq80.leveldb.DBIterator;
import org.apache.hadoop.shaded.org.iq80.leveldb.Options;
import org.apache.hadoop.shaded.org.iq80.leveldb.ReadOptions;
import org.apache.hadoop.shaded.org.iq80.leveldb.WriteBatch;

public final class JniDBFactory {
  public static final JniDBFactory factory = new JniDBFactory();

  public static byte[] bytes(String value) {
    return value == null ? null : value.getBytes(StandardCharsets.UTF_8);
  }

  public static String asString(byte[] value) {
    return value == null ? null : new String(value, StandardCharsets.UTF_8);
  }

  public DB open(File dir, Options options) throws IOException {
    File data = new File(dir, "lmctfy-test-store");
    if (!data.exists()) {
      if (!options.createIfMissing()) {
        throw new NativeDB.DBException(dir + ": does not exist (create_if_missing is false)", true);
      }
      Files.createDirectories(dir.toPath());
    }
    return new FileDb(data);
  }

  /** The store: a sorted map of unsigned byte strings, in one file. */
  private static final class FileDb implements DB {
    private final File file;
    private final NavigableMap<byte[], byte[]> map = new TreeMap<>(Arrays::compareUnsigned);

    FileDb(File file) throws IOException {
      this.file = file;
      if (file.exists()) {
        try (DataInputStream in = new DataInputStream(Files.newInputStream(file.toPath()))) {
          for (int n = in.readInt(); n > 0; n--) {
            byte[] key = new byte[in.readInt()];
            in.readFully(key);
            byte[] value = new byte[in.readInt()];
            in.readFully(value);
            map.put(key, value);
          }
        }
      } else {
        save();
      }
    }

    private synchronized void save() {
      File tmp = new File(file.getPath() + ".tmp");
      try (DataOutputStream out = new DataOutputStream(Files.newOutputStream(tmp.toPath()))) {
        out.writeInt(map.size());
        for (Map.Entry<byte[], byte[]> e : map.entrySet()) {
          out.writeInt(e.getKey().length);
          out.write(e.getKey());
          out.writeInt(e.getValue().length);
          out.write(e.getValue());
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      try {
        Files.move(tmp.toPath(), file.toPath(), StandardCopyOption.ATOMIC_MOVE);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    @Override
    public synchronized byte[] get(byte[] key) {
      return map.get(key);
    }

    @Override
    public synchronized void put(byte[] key, byte[] value) {
      map.put(key.clone(), value.clone());
      save();
    }

    @Override
    public synchronized void delete(byte[] key) {
      map.remove(key);
      save();
    }

    @Override
    public synchronized void write(WriteBatch batch) {
      ((Batch) batch).ops.forEach(op -> op.run());
      save();
    }

    @Override
    public WriteBatch createWriteBatch() {
      return new Batch(this);
    }

    @Override
    public DBIterator iterator() {
      return new Iter(this);
    }

    @Override
    public DBIterator iterator(ReadOptions options) {
      return iterator();
    }

    @Override
    public void compactRange(byte[] begin, byte[] end) {}

    @Override
    public void close() {}
  }

  private static final class Batch implements WriteBatch {
    private final FileDb db;
    private final List<Runnable> ops = new ArrayList<>();

    Batch(FileDb db) {
      this.db = db;
    }

    @Override
    public WriteBatch put(byte[] key, byte[] value) {
      byte[] k = key.clone();
      byte[] v = value.clone();
      ops.add(() -> db.map.put(k, v));
      return this;
    }

    @Override
    public WriteBatch delete(byte[] key) {
      byte[] k = key.clone();
      ops.add(() -> db.map.remove(k));
      return this;
    }

    @Override
    public void close() {}
  }

  /** A snapshot of the map at its making, positioned before its first key at or after a seek. */
  private static final class Iter implements DBIterator {
    private final List<Map.Entry<byte[], byte[]>> entries = new ArrayList<>();
    private int at;

    Iter(FileDb db) {
      synchronized (db) {
        db.map.forEach((k, v) -> entries.add(new AbstractMap.SimpleImmutableEntry<>(k, v)));
      }
    }

    @Override
    public void seek(byte[] key) {
      at = 0;
      while (at < entries.size() && Arrays.compareUnsigned(entries.get(at).getKey(), key) < 0) {
        at++;
      }
    }

    @Override
    public void seekToFirst() {
      at = 0;
    }

    @Override
    public void seekToLast() {
      at = Math.max(0, entries.size() - 1);
    }

    @Override
    public boolean hasNext() {
      return at < entries.size();
    }

    @Override
    public Map.Entry<byte[], byte[]> next() {
      if (!hasNext()) {
        throw new java.util.NoSuchElementException();
      }
      return entries.get(at++);
    }

    @Override
    public Map.Entry<byte[], byte[]> peekNext() {
      if (!hasNext()) {
        throw new java.util.NoSuchElementException();
      }
      return entries.get(at);
    }

    @Override
    public boolean hasPrev() {
      return at > 0;
    }

    @Override
    public Map.Entry<byte[], byte[]> prev() {
      return entries.get(--at);
    }

    @Override
    public Map.Entry<byte[], byte[]> peekPrev() {
      return entries.get(at - 1);
    }

    @Override
    public void close() {}
  }
}
