package io.tributary.state.forst.rocks;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.rocksdb.Checkpoint;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;

/**
 * One RocksDB instance holding one key group of one operator instance: the unit of state movement
 * (contract C8). Keys are {@code stateId | key length | key | namespace} (see {@link ForstState}).
 *
 * <p>The shard remembers which of its SST files are already durable in the object store (by local
 * file name, which RocksDB never reuses), so an incremental snapshot uploads only new files, and the
 * last manifest it was snapshotted or restored under, which a snapshot reuses when nothing changed.
 * Data access happens on the task thread; the durable-file map is also updated by upload threads.
 */
final class Shard implements AutoCloseable {
  private final int keyGroup;
  private final Path dir;
  private final RocksResources resources;
  private final RocksDB db;
  private final Map<String, ShardManifest.ShardFile> durableSsts = new ConcurrentHashMap<>();
  private final java.util.concurrent.atomic.AtomicInteger uploadsInFlight =
      new java.util.concurrent.atomic.AtomicInteger();
  private boolean dirty;
  private volatile boolean uploadFailed;
  private volatile String manifestName;
  private volatile ShardManifest manifest;

  private Shard(int keyGroup, Path dir, RocksResources resources, RocksDB db) {
    this.keyGroup = keyGroup;
    this.dir = dir;
    this.resources = resources;
    this.db = db;
  }

  /**
   * Opens (creating if needed) the shard in {@code dir}, which holds the files of {@code restored}
   * when that is not null.
   */
  static Shard open(RocksResources resources, int keyGroup, Path dir, String manifestName,
      ShardManifest restored) {
    try {
      java.nio.file.Files.createDirectories(dir);
      Shard s = new Shard(keyGroup, dir, resources, RocksDB.open(resources.options(), dir.toString()));
      if (restored != null) {
        s.markDurable(manifestName, restored);
      }
      return s;
    } catch (RocksDBException | java.io.IOException e) {
      throw new ForstStateException("cannot open RocksDB shard of key group " + keyGroup + " in " + dir, e);
    }
  }

  int keyGroup() {
    return keyGroup;
  }

  Path dir() {
    return dir;
  }

  /**
   * Reads the value of {@code key[0, keyLen)} into {@code buf}.
   *
   * @return {@link RocksDB#NOT_FOUND}, or the value's full length (larger than {@code buf} when it
   *     did not fit: call again with a larger buffer)
   */
  int get(byte[] key, int keyLen, byte[] buf) {
    try {
      return db.get(resources.readOptions(), key, 0, keyLen, buf, 0, buf.length);
    } catch (RocksDBException e) {
      throw failure("read", e);
    }
  }

  void put(byte[] key, int keyLen, byte[] value, int valueLen) {
    dirty = true;
    try {
      db.put(resources.writeOptions(), key, 0, keyLen, value, 0, valueLen);
    } catch (RocksDBException e) {
      throw failure("write", e);
    }
  }

  /** Appends {@code value} to the value of {@code key} (the merge operator concatenates). */
  void merge(byte[] key, int keyLen, byte[] value, int valueLen) {
    dirty = true;
    try {
      db.merge(resources.writeOptions(), key, 0, keyLen, value, 0, valueLen);
    } catch (RocksDBException e) {
      throw failure("merge", e);
    }
  }

  void delete(byte[] key, int keyLen) {
    dirty = true;
    try {
      db.delete(resources.writeOptions(), key, 0, keyLen);
    } catch (RocksDBException e) {
      throw failure("delete", e);
    }
  }

  /** A new iterator; the caller closes it. */
  RocksIterator iterator() {
    return db.newIterator(resources.readOptions());
  }

  /**
   * Whether a snapshot may reference the last manifest again: nothing changed since it was written
   * or restored, and no upload of this shard is pending or failed.
   */
  boolean reusable() {
    return !dirty && manifestName != null && uploadsInFlight.get() == 0 && !uploadFailed;
  }

  /** Called when an upload of a checkpoint of this shard starts. */
  void uploadStarted() {
    uploadsInFlight.incrementAndGet();
  }

  /** Called when that upload ends; {@code m} is null when it failed. */
  void uploadEnded(String name, ShardManifest m) {
    if (m == null) {
      uploadFailed = true;
    } else {
      markDurable(name, m);
      uploadFailed = false;
    }
    uploadsInFlight.decrementAndGet();
  }

  /**
   * Flushes the memtable and writes a RocksDB checkpoint (hard links) into {@code target}, which
   * must not exist. Runs on the task thread; clears the dirty flag.
   */
  void checkpoint(Path target) {
    try (Checkpoint cp = Checkpoint.create(db)) {
      // with the WAL off, createCheckpoint flushes the memtable itself (log_size_for_flush 0)
      cp.createCheckpoint(target.toString());
      dirty = false;
    } catch (RocksDBException e) {
      throw failure("checkpoint into " + target, e);
    }
  }

  /** The durable entry of a local SST file, or null if it was never uploaded. */
  ShardManifest.ShardFile durableSst(String localName) {
    return durableSsts.get(localName);
  }

  /**
   * Records that the shard's state is durable as {@code m} under {@code name}; an older manifest
   * than the one recorded (uploads finishing out of order) only adds its durable files.
   */
  synchronized void markDurable(String name, ShardManifest m) {
    for (ShardManifest.ShardFile f : m.files()) {
      if (f.shared()) {
        durableSsts.put(f.local(), f);
      }
    }
    if (manifest == null || m.checkpointId() >= manifest.checkpointId()) {
      manifest = m;
      manifestName = name;
    }
  }

  /** The last manifest this shard was snapshotted or restored under, or null. */
  String manifestName() {
    return manifestName;
  }

  ShardManifest manifest() {
    return manifest;
  }

  long estimatedKeys() {
    try {
      return db.getLongProperty("rocksdb.estimate-num-keys");
    } catch (RocksDBException e) {
      throw failure("read property", e);
    }
  }

  private ForstStateException failure(String what, RocksDBException e) {
    return new ForstStateException("RocksDB " + what + " failed in shard of key group " + keyGroup, e);
  }

  @Override
  public void close() {
    db.close();
  }
}
