package io.tributary.state.heap;

import io.tributary.state.StateCodec;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The windows of one key and their accumulators. A key has a few windows open at a time (a sliding
 * window's size over its slide, one per session), so they are kept in one array, window beside
 * accumulator, and looked up by scanning it: windows that an operator shares between records are
 * found by reference, without reading them. Beyond {@link #ARRAY_MAX} windows a hash map holds them
 * instead. Not thread-safe; null windows and accumulators are not allowed.
 *
 * @param <W> the window type
 * @param <A> the accumulator type
 */
final class WindowMap<W, A> {
  /** Most windows kept in the array. */
  static final int ARRAY_MAX = 8;
  /** Window and accumulator in turn; null when {@link #map} holds them. */
  private Object[] slots = new Object[4];
  private int size;
  private Map<W, A> map;

  int size() {
    return map != null ? map.size() : size;
  }

  boolean isEmpty() {
    return size() == 0;
  }

  @SuppressWarnings("unchecked")
  A get(W window) {
    if (map != null) {
      return map.get(window);
    }
    int i = indexOf(window);
    return i < 0 ? null : (A) slots[i + 1];
  }

  @SuppressWarnings("unchecked")
  void put(W window, A accumulator) {
    if (map != null) {
      map.put(window, accumulator);
      return;
    }
    int i = indexOf(window);
    if (i >= 0) {
      slots[i + 1] = accumulator;
      return;
    }
    if (size == ARRAY_MAX) {
      map = new HashMap<>();
      for (int k = 0; k < 2 * size; k += 2) {
        map.put((W) slots[k], (A) slots[k + 1]);
      }
      map.put(window, accumulator);
      slots = null;
      size = 0;
      return;
    }
    int at = 2 * size;
    if (at == slots.length) {
      slots = Arrays.copyOf(slots, 2 * slots.length);
    }
    slots[at] = window;
    slots[at + 1] = accumulator;
    size++;
  }

  /** Removes {@code window}; returns whether it was here. */
  boolean remove(W window) {
    if (map != null) {
      return map.remove(window) != null;
    }
    int i = indexOf(window);
    if (i < 0) {
      return false;
    }
    int last = 2 * --size;
    slots[i] = slots[last]; // the order of windows is not kept
    slots[i + 1] = slots[last + 1];
    slots[last] = null;
    slots[last + 1] = null;
    return true;
  }

  /** A copy of the windows. */
  @SuppressWarnings("unchecked")
  List<W> windows() {
    if (map != null) {
      return new ArrayList<>(map.keySet());
    }
    List<W> out = new ArrayList<>(size);
    for (int i = 0; i < 2 * size; i += 2) {
      out.add((W) slots[i]);
    }
    return out;
  }

  /** Writes the windows' count, then each window and its accumulator. */
  @SuppressWarnings("unchecked")
  void write(DataOutput out, StateCodec<W> windowCodec, StateCodec<A> accCodec) throws IOException {
    out.writeInt(size());
    if (map != null) {
      for (Map.Entry<W, A> e : map.entrySet()) {
        windowCodec.write(e.getKey(), out);
        accCodec.write(e.getValue(), out);
      }
      return;
    }
    for (int i = 0; i < 2 * size; i += 2) {
      windowCodec.write((W) slots[i], out);
      accCodec.write((A) slots[i + 1], out);
    }
  }

  /** The index of {@code window} in {@link #slots}, -1 if absent: by reference first, then by equals. */
  private int indexOf(Object window) {
    int n = 2 * size;
    for (int i = 0; i < n; i += 2) {
      if (slots[i] == window) {
        return i;
      }
    }
    for (int i = 0; i < n; i += 2) {
      if (window.equals(slots[i])) {
        return i;
      }
    }
    return -1;
  }
}
