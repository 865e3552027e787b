package io.tributary.worker.timer;

import io.tributary.state.Key;
import io.tributary.state.Murmur3;
import io.tributary.worker.operator.Timer;
import java.util.Arrays;

/**
 * A binary min-heap of timers by time that removes any of its entries in O(log n): each entry
 * knows its place ({@link Entry#index}), so a deleted timer leaves the heap at once instead of
 * waiting, dead, until its time comes (a session window that a record extends deletes one timer and
 * registers another: lazily deleted timers made most of what such a task polled). Comparisons read
 * the times from an array of their own, not from the entries spread over the Java heap. Timers with
 * the same time come out in no particular order.
 *
 * <p><b>Timers of one time share a place.</b> Tumbling and sliding windows end at a few times that
 * thousands of keys share. An entry added with the time of an entry that holds a place in the heap
 * (one of the times recently given a place, remembered in a small table) joins that entry's {@link
 * Chain}, an array, instead of taking a place of its own, and leaves it in O(1); when the entry
 * with the place leaves, the chain's last entry takes the place (same time, so the heap's order
 * holds). Polling a chain costs no sifting until its last entry. Entries of distinct times (session
 * windows) each take a place and make no chain, as before.
 */
final class TimerHeap {
  /**
   * Size of the table of entries recently given a place (a power of two): a time may be in any of
   * {@link #WAYS} slots from its hash's, so the few ends of open windows rarely push each other out.
   */
  private static final int RECENT = 64;
  private static final int WAYS = 4;

  /**
   * A timer in the heap. {@code index} is its place; or, while it is in the {@link #chain} of the
   * entry in a place with the same time, {@code -2 - i} for its index {@code i} there; -1 once it
   * left. It equals the plain timer of its key, namespace and time.
   */
  static final class Entry extends Timer {
    int index = -1;
    /** The chain of entries of its time, shared with the entry in the place; null while it has none. */
    Chain chain;

    Entry(Key key, Object namespace, long time) {
      super(key, namespace, time);
    }
  }

  /** The entries that share the place of an entry of the same time. */
  static final class Chain {
    Entry[] members = new Entry[8];
    int size;
  }

  private long[] times = new long[16];
  private Entry[] entries = new Entry[16];
  /** Entries recently given a place, by their time's hash; one still valid has that place. */
  private final Entry[] recent = new Entry[RECENT];
  private int places;
  private int size;

  int size() {
    return size;
  }

  /** Places taken in the heap: one per entry not in a chain. */
  int places() {
    return places;
  }

  void add(Entry e) {
    size++;
    long time = e.time();
    int slot = recentSlot(time);
    int victim = slot + (places & (WAYS - 1)); // an entry that still has its place, when all have
    for (int j = 0; j < WAYS; j++) {
      Entry head = recent[slot + j];
      if (head == null || head.index < 0) {
        victim = slot + j;
      } else if (head.time() == time) {
        chain(head, e);
        return;
      }
    }
    if (places == times.length) {
      int grown = places + (places >> 1);
      times = Arrays.copyOf(times, grown);
      entries = Arrays.copyOf(entries, grown);
    }
    siftUp(places++, time, e);
    recent[victim] = e;
  }

  /** Adds {@code e} to the chain of {@code head}, which has its place and the same time. */
  private static void chain(Entry head, Entry e) {
    Chain c = head.chain;
    if (c == null) {
      c = new Chain();
      head.chain = c;
    } else if (c.size == c.members.length) {
      c.members = Arrays.copyOf(c.members, c.size + (c.size >> 1));
    }
    e.chain = c;
    e.index = -2 - c.size;
    c.members[c.size++] = e;
  }

  /** By Murmur3's 64-bit finalizer: window ends are multiples of a second, which simpler hashes bunch up. */
  private static int recentSlot(long time) {
    return (int) Murmur3.fmix64(time) & (RECENT - WAYS); // the first of WAYS consecutive slots
  }

  /** The earliest timer, or null when empty. */
  Entry peek() {
    return places == 0 ? null : entries[0];
  }

  /** Removes the earliest timer; returns it, or null when empty. */
  Timer poll() {
    if (places == 0) {
      return null;
    }
    Entry first = entries[0];
    leavePlace(0, first);
    return first;
  }

  /** Removes {@code e}, which must be in this heap. */
  void remove(Entry e) {
    int i = e.index;
    if (i <= -2) {
      Chain c = e.chain;
      int at = -2 - i;
      if (c == null || at >= c.size || c.members[at] != e) {
        throw new IllegalArgumentException("not in this heap: " + e);
      }
      Entry last = c.members[--c.size];
      c.members[at] = last;
      last.index = -2 - at;
      c.members[c.size] = null;
      e.chain = null;
      e.index = -1;
      size--;
      return;
    }
    if (i < 0 || i >= places || entries[i] != e) {
      throw new IllegalArgumentException("not in this heap: " + e);
    }
    leavePlace(i, e);
  }

  /** Takes {@code gone}, the entry in place {@code i}, out: its chain's last entry takes the place, if any. */
  private void leavePlace(int i, Entry gone) {
    size--;
    gone.index = -1;
    Chain c = gone.chain;
    gone.chain = null;
    if (c != null && c.size > 0) {
      Entry successor = c.members[--c.size];
      c.members[c.size] = null;
      entries[i] = successor; // the table of recent times may still name gone: a later add takes a place
      successor.index = i;
      return;
    }
    removeAt(i);
  }

  private void removeAt(int i) {
    int last = --places;
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
    int half = places >>> 1; // nodes below this index have a child
    while (i < half) {
      int child = 2 * i + 1;
      int right = child + 1;
      if (right < places && times[right] < times[child]) {
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

  /** A copy of the timers, in no particular order: an array copy per chain. */
  Timer[] timers() {
    Timer[] all = new Timer[size];
    int n = 0;
    for (int i = 0; i < places; i++) {
      Entry e = entries[i];
      all[n++] = e;
      Chain c = e.chain;
      if (c != null) {
        System.arraycopy(c.members, 0, all, n, c.size);
        n += c.size;
      }
    }
    return all;
  }
}
