package io.tributary.state.heap;

/** What the heap backend needs from each of its states. */
interface HeapState {
  /** Number of (key, namespace) entries this state holds. */
  long entryCount();

  /** Drops every entry of every key. */
  void clearAll();
}
