package io.tributary.worker.task;

/**
 * Where a task's thread spends its time: waiting for input (idle), waiting for downstream credit
 * (backpressured), or working (busy: the rest). Measured only around the task's blocking points —
 * two {@code System.nanoTime()} calls per wait, none per record — so a task that never waits is
 * all busy.
 *
 * <p>Written by the task thread only ({@link #start}, {@link #beginWait}, {@link #endWait},
 * {@link #stop}); {@link #read} may be called from any thread and includes a wait in progress. A
 * version counter (odd while the task thread changes the fields) makes a read consistent.
 */
public final class TaskTimes {
  /** What a task waits for. */
  public enum Wait {
    /** Nothing to read: no input arrived, a source has nothing yet, or it is throttled. */
    INPUT,
    /** An outgoing buffer waits for credit from a receiver (contract C2). */
    CREDIT
  }

  /**
   * Cumulative times of one task at {@code atNanos}.
   *
   * @param elapsedNanos since the task started (up to when it stopped)
   */
  public record Sample(long atNanos, long elapsedNanos, long idleNanos, long backpressuredNanos) {
    public static final Sample ZERO = new Sample(0, 0, 0, 0);

    /** Elapsed time not spent waiting. */
    public long busyNanos() {
      return Math.max(0, elapsedNanos - idleNanos - backpressuredNanos);
    }
  }

  private volatile int version;
  private volatile long startNanos = Long.MIN_VALUE;
  private volatile long stopNanos = Long.MIN_VALUE;
  private volatile long idleNanos;
  private volatile long backpressuredNanos;
  private volatile Wait waiting;
  private volatile long waitStartNanos;

  /** The task thread starts. */
  void start(long nowNanos) {
    startNanos = nowNanos;
  }

  /** The task thread begins to wait for {@code what}. */
  void beginWait(Wait what, long nowNanos) {
    version++;
    waitStartNanos = nowNanos;
    waiting = what;
    version++;
  }

  /** The wait that {@link #beginWait} began is over. */
  void endWait(long nowNanos) {
    Wait w = waiting;
    if (w == null) {
      return;
    }
    long d = Math.max(0, nowNanos - waitStartNanos);
    version++;
    if (w == Wait.INPUT) {
      idleNanos += d;
    } else {
      backpressuredNanos += d;
    }
    waiting = null;
    version++;
  }

  /**
   * The task thread spent {@code nanos} in a call that waited for input without blocking the task
   * (a source reader polling its external system and finding nothing): idle time, not busy.
   */
  void addIdle(long nanos) {
    if (nanos <= 0) {
      return;
    }
    version++;
    idleNanos += nanos;
    version++;
  }

  /** The task thread ends (after its last wait). */
  void stop(long nowNanos) {
    endWait(nowNanos);
    stopNanos = nowNanos;
  }

  /** The times up to {@code nowNanos} (a wait in progress counts up to then). Any thread. */
  public Sample read(long nowNanos) {
    while (true) {
      int v = version;
      if ((v & 1) != 0) {
        Thread.onSpinWait();
        continue;
      }
      long start = startNanos;
      long stop = stopNanos;
      long idle = idleNanos;
      long bp = backpressuredNanos;
      Wait w = waiting;
      long waitStart = waitStartNanos;
      if (version != v) {
        continue;
      }
      if (start == Long.MIN_VALUE) {
        return new Sample(nowNanos, 0, 0, 0);
      }
      long end = stop != Long.MIN_VALUE ? Math.min(stop, nowNanos) : nowNanos;
      if (w != null) {
        long d = Math.max(0, end - waitStart);
        if (w == Wait.INPUT) {
          idle += d;
        } else {
          bp += d;
        }
      }
      return new Sample(nowNanos, Math.max(0, end - start), idle, bp);
    }
  }
}
