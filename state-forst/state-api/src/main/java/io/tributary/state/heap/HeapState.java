package io.tributary.state.heap;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/** What the heap backend needs from each of its states. */
interface HeapState {
  HeapStateKind kind();

  /** Number of (key, namespace) entries this state holds. */
  long entryCount();

  /** Number of (key, namespace) entries this state holds in one key group. */
  long entryCount(int groupIndex);

  /** Drops every entry of every key. */
  void clearAll();

  /** Serializes the entries of one key group with the state's codecs. */
  void write(int groupIndex, DataOutput out) throws IOException;

  /**
   * Adds the entries that {@link #write} wrote for key group {@code keyGroup}, kept at
   * {@code groupIndex}.
   *
   * @throws IOException when the data is corrupt or belongs to another key group
   */
  void read(int groupIndex, int keyGroup, int maxParallelism, DataInput in) throws IOException;
}
