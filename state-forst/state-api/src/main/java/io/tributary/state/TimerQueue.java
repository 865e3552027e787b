package io.tributary.state;

/**
 * Event-time timers kept by a keyed state backend with its state, so that they snapshot and restore
 * with it (per key group, at any parallelism) and need not fit on the heap. A timer is a (key,
 * namespace, time); the queue holds each at most once and hands them out by time.
 *
 * <p>What a caller may rely on: {@link #add} of a timer already held and {@link #remove} of one
 * not held change nothing; {@link #poll} returns a timer with the lowest time held, timers with the
 * same time in no particular order; {@link #peekTime} is that time. Timers of key groups restored
 * and not used since are read when a time is first asked for. Used by the task thread only, like
 * the backend.
 *
 * @param <N> the namespace type, encoded with the codec the queue was asked for with
 */
public interface TimerQueue<N> {
  /** Adds the timer ({@code key}, {@code namespace}, {@code time}), unless it is held already. */
  void add(Key key, N namespace, long time);

  /** Removes the timer ({@code key}, {@code namespace}, {@code time}), if held. */
  void remove(Key key, N namespace, long time);

  /** The lowest time of a timer held, {@code Long.MAX_VALUE} when there is none. */
  long peekTime();

  /** Removes and returns a timer with the lowest time held if that time is at most {@code maxTime}; else null. */
  Entry<N> poll(long maxTime);

  /** The number of timers held: exact, and it may read every one of them (for tests and tools). */
  long size();

  /** One timer. */
  record Entry<N>(Key key, N namespace, long time) {}
}
