package io.tributary.state.forst.rocks;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The durable description of one key group's shard in one snapshot: the files of its last
 * materialization (a RocksDB checkpoint), each with the local name RocksDB expects and the object
 * that holds its bytes, and the {@link ChangeLog} segments written since, which a restore replays
 * over those files in order. Shared (immutable, content-named) SST objects may appear in many
 * manifests; private files (MANIFEST, CURRENT) belong to one materialization and are usually
 * inlined. Stored as JSON (inline content base64).
 *
 * @param keyGroup the key group
 * @param checkpointId the checkpoint that wrote it
 * @param files the files of the shard's last materialization (none: it started empty)
 * @param log the change-log segments since that materialization, oldest first
 */
record ShardManifest(int keyGroup, long checkpointId, List<ShardFile> files, List<LogSegment> log) {
  private static final ObjectMapper JSON = new ObjectMapper();

  ShardManifest {
    files = List.copyOf(files);
    log = log == null ? List.of() : List.copyOf(log);
  }

  /** A manifest of a materialization, without log. */
  ShardManifest(int keyGroup, long checkpointId, List<ShardFile> files) {
    this(keyGroup, checkpointId, files, List.of());
  }

  /**
   * A byte range of a change-log object: the writes one snapshot logged for this key group. One
   * object holds the segments of every key group of a snapshot, so a restore that needs several
   * reads (and caches) it once.
   *
   * @param object the change-log object
   * @param offset where the segment starts
   * @param length its length in bytes
   */
  record LogSegment(String object, long offset, int length) {}

  /**
   * One file of a shard.
   *
   * @param local the file name inside the RocksDB directory
   * @param object the object name in the object store
   * @param size size in bytes
   * @param shared whether the object is a content-named immutable SST shared between snapshots
   * @param inline the content of a small private file kept in the manifest itself (then
   *     {@code object} is null), which saves one object per file
   */
  record ShardFile(String local, String object, long size, boolean shared, byte[] inline) {
    static ShardFile stored(String local, String object, long size, boolean shared) {
      return new ShardFile(local, object, size, shared, null);
    }
  }

  long stateBytes() {
    long n = 0;
    for (ShardFile f : files) {
      n += f.size();
    }
    return n + logBytes();
  }

  /** Bytes of change log a restore replays. */
  long logBytes() {
    long n = 0;
    for (LogSegment s : log) {
      n += s.length();
    }
    return n;
  }

  /** Every object this manifest references, the manifest object itself excluded. */
  List<String> objects() {
    List<String> names = new ArrayList<>(files.size());
    for (ShardFile f : files) {
      if (f.object() != null) {
        names.add(f.object());
      }
    }
    for (LogSegment s : log) {
      if (!names.contains(s.object())) {
        names.add(s.object());
      }
    }
    return names;
  }

  /**
   * The same shard described where a copy of its objects lies: every stored file's object renamed by
   * {@code rename} (inline files stay inline). Every object reference of a manifest must go through
   * {@code rename}, so that a relocated manifest references nothing of the original (see
   * {@link SnapshotCopies}).
   */
  ShardManifest relocated(java.util.function.UnaryOperator<String> rename) {
    List<ShardFile> moved = new ArrayList<>(files.size());
    for (ShardFile f : files) {
      moved.add(f.object() == null ? f
          : new ShardFile(f.local(), rename.apply(f.object()), f.size(), f.shared(), f.inline()));
    }
    List<LogSegment> movedLog = new ArrayList<>(log.size());
    for (LogSegment s : log) {
      movedLog.add(new LogSegment(rename.apply(s.object()), s.offset(), s.length()));
    }
    return new ShardManifest(keyGroup, checkpointId, moved, movedLog);
  }

  byte[] toJson() {
    try {
      return JSON.writeValueAsBytes(this);
    } catch (IOException e) {
      throw new IllegalStateException("cannot encode shard manifest of key group " + keyGroup, e);
    }
  }

  static ShardManifest fromJson(String objectName, byte[] json) throws IOException {
    try {
      return JSON.readValue(json, ShardManifest.class);
    } catch (IOException e) {
      throw new IOException("corrupt shard manifest " + objectName + ": " + e.getMessage(), e);
    }
  }
}
