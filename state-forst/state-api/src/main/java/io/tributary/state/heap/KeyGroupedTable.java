package io.tributary.state.heap;

import io.tributary.state.Key;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.function.ToLongFunction;

/**
 * The entries of one state, split by key group: an array of maps indexed by
 * {@code keyGroup - range.start}, so that a whole key group can be moved (rescaling) without
 * looking at the others. Maps are created on first write.
 *
 * @param <S> the per-key value (a value, a list, a map of namespaces...)
 */
final class KeyGroupedTable<S> {
  private final Map<Key, S>[] groups;

  @SuppressWarnings("unchecked")
  KeyGroupedTable(int keyGroupCount) {
    this.groups = new Map[keyGroupCount];
  }

  S get(int groupIndex, Key key) {
    Map<Key, S> g = groups[groupIndex];
    return g == null ? null : g.get(key);
  }

  void put(int groupIndex, Key key, S value) {
    Map<Key, S> g = groups[groupIndex];
    if (g == null) {
      g = new HashMap<>();
      groups[groupIndex] = g;
    }
    g.put(key, value);
  }

  void remove(int groupIndex, Key key) {
    Map<Key, S> g = groups[groupIndex];
    if (g != null) {
      g.remove(key);
    }
  }

  /** The entries of one key group (empty when it holds none); a live view. */
  Map<Key, S> group(int groupIndex) {
    Map<Key, S> g = groups[groupIndex];
    return g == null ? Map.of() : g;
  }

  /** Sum of {@code weight} over every entry of every key group. */
  long count(ToLongFunction<S> weight) {
    long n = 0;
    for (Map<Key, S> g : groups) {
      if (g != null) {
        for (S s : g.values()) {
          n += weight.applyAsLong(s);
        }
      }
    }
    return n;
  }

  /** Sum of {@code weight} over the entries of one key group. */
  long count(int groupIndex, ToLongFunction<S> weight) {
    long n = 0;
    for (S s : group(groupIndex).values()) {
      n += weight.applyAsLong(s);
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
    Map<Key, S> g = group(groupIndex);
    out.writeInt(g.size());
    for (Map.Entry<Key, S> e : g.entrySet()) {
      byte[] key = e.getKey().bytes();
      out.writeInt(key.length);
      out.write(key);
      value.write(e.getValue(), out);
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
