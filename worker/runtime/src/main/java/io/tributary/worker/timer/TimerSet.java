package io.tributary.worker.timer;

import io.tributary.worker.operator.Timer;

/**
 * The live timers of a {@link HeapTimerService}, each its own {@link TimerHeap.Entry}: an open
 * addressing hash set (linear probing, deletion by shifting back, at most half full) with the
 * entries' hash codes in an array beside them. A probe compares hash codes from that array and reads
 * an entry only when its hash matches, and taking out a timer that fired compares references alone,
 * so neither reads the timers it passes. A timer costs two array slots and no node object: in a
 * {@code HashMap}, every lookup went through a node to reach the timer.
 */
final class TimerSet {
  private TimerHeap.Entry[] entries = new TimerHeap.Entry[16];
  private int[] hashes = new int[16];
  private int mask = 15;
  private int shift = 32 - 4;
  private int size;

  int size() {
    return size;
  }

  /** Adds {@code e} unless an equal timer is here; returns that timer, or null when {@code e} was added. */
  TimerHeap.Entry addIfAbsent(TimerHeap.Entry e) {
    int h = e.hashCode();
    int i = slot(h);
    for (TimerHeap.Entry x; (x = entries[i]) != null; i = (i + 1) & mask) {
      if (hashes[i] == h && x.equals(e)) {
        return x;
      }
    }
    entries[i] = e;
    hashes[i] = h;
    if (++size > (mask + 1) >> 1) {
      grow();
    }
    return null;
  }

  /** Removes the entry equal to {@code timer}; returns it, or null when there is none. */
  TimerHeap.Entry remove(Timer timer) {
    int h = timer.hashCode();
    for (int i = slot(h); entries[i] != null; i = (i + 1) & mask) {
      TimerHeap.Entry x = entries[i];
      if (hashes[i] == h && (x == timer || x.equals(timer))) {
        removeAt(i);
        return x;
      }
    }
    return null;
  }

  /** Removes {@code e} itself, if it is here. */
  void removeExact(TimerHeap.Entry e) {
    for (int i = slot(e.hashCode()); entries[i] != null; i = (i + 1) & mask) {
      if (entries[i] == e) {
        removeAt(i);
        return;
      }
    }
  }

  /** Empties slot {@code i}, shifting back the entries after it that probed past it. */
  private void removeAt(int i) {
    size--;
    int gap = i;
    for (int j = (i + 1) & mask; entries[j] != null; j = (j + 1) & mask) {
      int home = slot(hashes[j]);
      // j may move into the gap unless its home lies cyclically in (gap, j]
      if (((j - home) & mask) >= ((j - gap) & mask)) {
        entries[gap] = entries[j];
        hashes[gap] = hashes[j];
        gap = j;
      }
    }
    entries[gap] = null;
  }

  /** Fibonacci hashing: the timer's hash code mixes its key's, namespace's and time's by small factors. */
  private int slot(int h) {
    return (h * 0x9E3779B9) >>> shift;
  }

  private void grow() {
    TimerHeap.Entry[] oldEntries = entries;
    int[] oldHashes = hashes;
    int capacity = oldEntries.length * 2;
    entries = new TimerHeap.Entry[capacity];
    hashes = new int[capacity];
    mask = capacity - 1;
    shift = Integer.numberOfLeadingZeros(capacity) + 1;
    for (int k = 0; k < oldEntries.length; k++) {
      TimerHeap.Entry x = oldEntries[k];
      if (x != null) {
        int i = slot(oldHashes[k]);
        while (entries[i] != null) {
          i = (i + 1) & mask;
        }
        entries[i] = x;
        hashes[i] = oldHashes[k];
      }
    }
  }
}
