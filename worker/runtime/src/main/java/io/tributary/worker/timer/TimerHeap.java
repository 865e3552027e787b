package io.tributary.worker.timer;

import io.tributary.state.Key;
import io.tributary.worker.operator.Timer;
import java.util.Arrays;

/**
 * A binary min-heap of timers by time that removes any of its entries in O(log n): each entry
 * knows its place ({@link Entry#index}), so a deleted timer leaves the heap at once instead of
 * waiting, dead, until its time comes (a session window that a record extends deletes one timer and
 * registers another: lazily deleted timers made most of what such a task polled). Comparisons read
 * the times from an array of their own, not from the entries spread over the Java heap. Timers with
 * the same time come out in no particular order.
 */
final class TimerHeap {
  /**
   * A timer in the heap; {@code index} is its place, -1 once it left. It equals the plain timer of
   * its key, namespace and time.
   */
  static final class Entry extends Timer {
    int index = -1;

    Entry(Key key, Object namespace, long time) {
      super(key, namespace, time);
    }
  }

  private long[] times = new long[16];
  private Entry[] entries = new Entry[16];
  private int size;

  int size() {
    return size;
  }

  void add(Entry e) {
    if (size == times.length) {
      int grown = size + (size >> 1);
      times = Arrays.copyOf(times, grown);
      entries = Arrays.copyOf(entries, grown);
    }
    siftUp(size++, e.time(), e);
  }

  /** The earliest timer, or null when empty. */
  Timer peek() {
    return size == 0 ? null : entries[0];
  }

  /** Removes the earliest timer; returns it, or null when empty. */
  Timer poll() {
    if (size == 0) {
      return null;
    }
    Entry first = entries[0];
    removeAt(0);
    return first;
  }

  /** Removes {@code e}, which must be in this heap. */
  void remove(Entry e) {
    int i = e.index;
    if (i < 0 || i >= size || entries[i] != e) {
      throw new IllegalArgumentException("not in this heap: " + e);
    }
    removeAt(i);
  }

  private void removeAt(int i) {
    Entry gone = entries[i];
    gone.index = -1;
    int last = --size;
    Entry moved = entries[last];
    long time = times[last];
    entries[last] = null;
    if (i == last) {
      return;
    }
    if (i > 0 && time < times[(i - 1) >>> 1]) {
      siftUp(i, time, moved);
    } else {
      siftDown(i, time, moved);
    }
  }

  private void siftUp(int i, long time, Entry e) {
    while (i > 0) {
      int parent = (i - 1) >>> 1;
      if (times[parent] <= time) {
        break;
      }
      place(i, times[parent], entries[parent]);
      i = parent;
    }
    place(i, time, e);
  }

  private void siftDown(int i, long time, Entry e) {
    int half = size >>> 1; // nodes below this index have a child
    while (i < half) {
      int child = 2 * i + 1;
      int right = child + 1;
      if (right < size && times[right] < times[child]) {
        child = right;
      }
      if (time <= times[child]) {
        break;
      }
      place(i, times[child], entries[child]);
      i = child;
    }
    place(i, time, e);
  }

  private void place(int i, long time, Entry e) {
    times[i] = time;
    entries[i] = e;
    e.index = i;
  }

  /** A copy of the timers, in no particular order: one array copy. */
  Timer[] timers() {
    return Arrays.copyOf(entries, size, Timer[].class);
  }
}
