package io.tributary.state.heap;

import io.tributary.state.Key;
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

  void clear() {
    java.util.Arrays.fill(groups, null);
  }
}
