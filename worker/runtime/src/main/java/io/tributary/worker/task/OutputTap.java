package io.tributary.worker.task;

import io.tributary.stream.Record;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * A sample of the records one operator subtask produced (a sink: the records it wrote), for a live
 * view of a job's output: the last {@link #CAPACITY} records taken, at most {@link
 * #MAX_PER_SECOND} a second, so that it costs nothing measurable at millions of records a second.
 * The task thread checks a plain counter per record and takes a record only while it is
 * positive; the counter is refilled, once a second, when the task publishes its counters.
 *
 * <p>Written by the task thread only; {@link #since} may be called from any thread. Records are
 * immutable, so they are kept by reference.
 */
public final class OutputTap {
  /** Records kept. */
  public static final int CAPACITY = 100;
  /** Records taken per second, at most. */
  public static final int MAX_PER_SECOND = 50;
  private static final long SECOND = 1_000_000_000L;

  /**
   * A record taken, numbered in the order taken.
   *
   * @param seq 0 for the first record taken by this tap, then one more per record
   * @param emittedAtMillis wall-clock time when it was taken
   */
  public record Entry(long seq, long emittedAtMillis, Record record) {}

  private final String operatorId;
  private final int subtask;
  private final AtomicReferenceArray<Entry> ring = new AtomicReferenceArray<>(CAPACITY);
  private volatile long next;
  private long windowStartNanos = Long.MIN_VALUE;
  /** Records the task may still take in this second; read per record by the task thread. */
  int budget;

  OutputTap(String operatorId, int subtask) {
    this.operatorId = operatorId;
    this.subtask = subtask;
  }

  public String operatorId() {
    return operatorId;
  }

  public int subtask() {
    return subtask;
  }

  /** Refills the budget when a new second began. Task thread. */
  void refill(long nowNanos) {
    if (windowStartNanos == Long.MIN_VALUE || nowNanos - windowStartNanos >= SECOND) {
      windowStartNanos = nowNanos;
      budget = MAX_PER_SECOND;
    }
  }

  /** Takes {@code record}, using up one of the budget. Task thread. */
  void take(Record record) {
    budget--;
    long seq = next;
    ring.set((int) (seq % CAPACITY), new Entry(seq, System.currentTimeMillis(), record));
    next = seq + 1;
  }

  /** The number of records taken so far: the {@code seq} the next one gets. Any thread. */
  public long taken() {
    return next;
  }

  /** The kept records numbered {@code fromSeq} or later, oldest first. Any thread. */
  public List<Entry> since(long fromSeq) {
    long end = next;
    long from = Math.max(fromSeq, end - CAPACITY);
    List<Entry> out = new ArrayList<>((int) Math.max(0, end - from));
    for (long s = Math.max(0, from); s < end; s++) {
      Entry e = ring.get((int) (s % CAPACITY));
      if (e != null && e.seq() == s) {
        out.add(e); // else overwritten by a newer record meanwhile
      }
    }
    return out;
  }
}
