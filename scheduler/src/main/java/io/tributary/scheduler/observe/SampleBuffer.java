package io.tributary.scheduler.observe;

import io.tributary.protocol.SampledRecord;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The last {@value #CAPACITY} records one operator subtask's output sample reported, for the live
 * view of a job's output: filled from the workers' reports, read by the API and by subscribers.
 * Thread-safe.
 */
public final class SampleBuffer {
  /** Records kept. */
  public static final int CAPACITY = 100;

  /** A record kept, numbered as its worker's sample numbered it. */
  public record Entry(long seq, OutputRecord record) {}

  private final String operatorId;
  private final int subtask;
  private final Entry[] ring = new Entry[CAPACITY];
  private long next;

  SampleBuffer(String operatorId, int subtask) {
    this.operatorId = operatorId;
    this.subtask = subtask;
  }

  public String operatorId() {
    return operatorId;
  }

  public int subtask() {
    return subtask;
  }

  /** Keeps {@code records} (in seq order); records older than what is kept are ignored. */
  synchronized void add(List<SampledRecord> records) {
    for (SampledRecord r : records) {
      if (r.seq() < next) {
        continue;
      }
      OutputRecord o = new OutputRecord(operatorId, subtask, Instant.ofEpochMilli(r.emittedAtMillis()),
          r.eventTimeMillis() == null ? null : Instant.ofEpochMilli(r.eventTimeMillis()),
          java.util.Collections.unmodifiableMap(r.fields()));
      ring[(int) (r.seq() % CAPACITY)] = new Entry(r.seq(), o);
      next = r.seq() + 1;
    }
  }

  /** The kept records numbered {@code fromSeq} or later, oldest first. */
  public synchronized List<Entry> since(long fromSeq) {
    long from = Math.max(fromSeq, next - CAPACITY);
    List<Entry> out = new ArrayList<>((int) Math.max(0, next - from));
    for (long s = Math.max(0, from); s < next; s++) {
      Entry e = ring[(int) (s % CAPACITY)];
      if (e != null && e.seq() == s) {
        out.add(e); // else a gap: the worker's sample overwrote it before reporting
      }
    }
    return out;
  }
}
