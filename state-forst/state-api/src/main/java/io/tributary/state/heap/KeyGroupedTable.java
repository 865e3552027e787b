package io.tributary.state.heap;

import io.tributary.state.Key;
import io.tributary.state.KeyTable;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.function.ToLongFunction;

/**
 * The entries of one state, split by key group: an array of {@link KeyTable}s indexed by
 * {@code keyGroup - range.start}, so that a whole key group can be moved (rescaling) without
 * looking at the others. Tables are created on first write.
 *
 * @param <S> the per-key value (a value, a list, a map of namespaces...)
 */
final class KeyGroupedTable<S> {
  private final KeyTable<S>[] groups;

  @SuppressWarnings("unchecked")
  KeyGroupedTable(int keyGroupCount) {
    this.groups = new KeyTable[keyGroupCount];
  }

  S get(int groupIndex, Key key) {
    KeyTable<S> g = groups[groupIndex];
    return g == null ? null : g.get(key);
  }

  void put(int groupIndex, Key key, S value) {
    KeyTable<S> g = groups[groupIndex];
    if (g == null) {
      g = new KeyTable<>();
      groups[groupIndex] = g;
    }
    g.put(key, value);
  }

  void remove(int groupIndex, Key key) {
    KeyTable<S> g = groups[groupIndex];
    if (g != null) {
      g.remove(key);
    }
  }

  /** The number of keys with an entry in one key group. */
  int size(int groupIndex) {
    KeyTable<S> g = groups[groupIndex];
    return g == null ? 0 : g.size();
  }

  /** Sum of {@code weight} over every entry of every key group. */
  long count(ToLongFunction<S> weight) {
    long n = 0;
    for (int i = 0; i < groups.length; i++) {
      n += count(i, weight);
    }
    return n;
  }

  /** Sum of {@code weight} over the entries of one key group. */
  long count(int groupIndex, ToLongFunction<S> weight) {
    KeyTable<S> g = groups[groupIndex];
    long n = 0;
    if (g != null) {
      for (int i = 0; i < g.capacity(); i++) {
        if (g.keyAt(i) != null) {
          n += weight.applyAsLong(g.valueAt(i));
        }
      }
    }
    return n;
  }

  void clear() {
    java.util.Arrays.fill(groups, null);
  }

  /**
   * Writes the entries of one key group: their number, then per key its serialized form (length
   * and bytes) followed by what {@code value} writes.
   */
  void write(int groupIndex, DataOutput out, ValueWriter<S> value) throws IOException {
    KeyTable<S> g = groups[groupIndex];
    if (g == null) {
      out.writeInt(0);
      return;
    }
    out.writeInt(g.size());
    for (int i = 0; i < g.capacity(); i++) {
      Key k = g.keyAt(i);
      if (k != null) {
        byte[] key = k.bytes();
        out.writeInt(key.length);
        out.write(key);
        value.write(g.valueAt(i), out);
      }
    }
  }

  /**
   * Reads what {@link #write} wrote into key group {@code groupIndex}, replacing entries of the
   * same keys.
   *
   * @throws IOException when the data is corrupt, including a key of another key group than
   *     {@code keyGroup} (data of another {@code maxParallelism})
   */
  void read(int groupIndex, int keyGroup, int maxParallelism, DataInput in, ValueReader<S> value)
      throws IOException {
    int n = in.readInt();
    for (int i = 0; i < n; i++) {
      int length = in.readInt();
      if (length < 0) {
        throw new IOException("negative key length " + length);
      }
      byte[] bytes = new byte[length];
      in.readFully(bytes);
      Key key = Key.fromBytes(bytes);
      int actual = key.keyGroup(maxParallelism);
      if (actual != keyGroup) {
        throw new IOException("key " + key + " belongs to key group " + actual + " of " + maxParallelism
            + ", not to key group " + keyGroup + ": was the state written with another maxParallelism?");
      }
      put(groupIndex, key, value.read(in));
    }
  }

  /** Serializes the per-key value of a state. */
  @FunctionalInterface
  interface ValueWriter<S> {
    void write(S value, DataOutput out) throws IOException;
  }

  /** Deserializes the per-key value of a state. */
  @FunctionalInterface
  interface ValueReader<S> {
    S read(DataInput in) throws IOException;
  }
}
