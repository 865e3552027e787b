package io.tributary.scheduler.observe;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Live output of jobs: reads the output samples of a job's operators ({@link SampleBuffer}s, filled
 * from the workers' reports), and feeds subscribers with what is new on every {@link #poll()} (the
 * metrics thread's). A subscription follows the job across its attempts: the buffers of a new
 * attempt are read from their start.
 */
public final class OutputFeeds {
  private final Set<Feed> feeds = ConcurrentHashMap.newKeySet();

  /** The output samples of the job's current attempt, else of its last one in this process, or null. */
  public static JobOutput current(ObservedJob job) {
    return job.metrics().output();
  }

  /** What the buffers keep from {@code next} on (by buffer: the first seq wanted), oldest first. */
  public static List<OutputRecord> read(List<SampleBuffer> taps, Map<SampleBuffer, Long> next) {
    List<OutputRecord> out = new ArrayList<>();
    for (SampleBuffer tap : taps) {
      long from = next.getOrDefault(tap, 0L);
      List<SampleBuffer.Entry> entries = tap.since(from);
      for (SampleBuffer.Entry e : entries) {
        out.add(e.record());
      }
      if (!entries.isEmpty()) {
        next.put(tap, entries.get(entries.size() - 1).seq() + 1);
      }
    }
    out.sort(Comparator.comparing(OutputRecord::emittedAt));
    return out;
  }

  public OutputSubscription subscribe(ObservedJob job, String operatorId, OutputListener listener) {
    Feed f = new Feed(job, operatorId, listener);
    feeds.add(f);
    return f;
  }

  /** Delivers what is new to every subscriber. Metrics thread. */
  public void poll() {
    for (Feed f : feeds) {
      f.poll();
    }
  }

  /** Ends the subscriptions to {@code job}. */
  public void jobGone(ObservedJob job, String reason) {
    for (Feed f : feeds) {
      if (f.job == job) {
        f.end(reason);
      }
    }
  }

  public void closeAll(String reason) {
    for (Feed f : feeds) {
      f.end(reason);
    }
  }

  private final class Feed implements OutputSubscription {
    final ObservedJob job;
    final String operatorId;
    final OutputListener listener;
    /** Guarded by this: per buffer, the next seq to deliver. */
    private Map<SampleBuffer, Long> next = new IdentityHashMap<>();
    private volatile boolean closed;

    Feed(ObservedJob job, String operatorId, OutputListener listener) {
      this.job = job;
      this.operatorId = operatorId;
      this.listener = listener;
    }

    synchronized void poll() {
      if (closed) {
        return;
      }
      if (job.retired()) {
        end("job '" + job.name() + "' was deleted");
        return;
      }
      JobOutput output = current(job);
      List<SampleBuffer> taps = output == null ? List.of() : output.taps(operatorId);
      Map<SampleBuffer, Long> kept = new IdentityHashMap<>();
      for (SampleBuffer t : taps) {
        kept.put(t, next.getOrDefault(t, 0L)); // forget the buffers of an earlier attempt
      }
      next = kept;
      List<OutputRecord> records = read(taps, next);
      if (records.isEmpty()) {
        return;
      }
      try {
        listener.records(records);
      } catch (RuntimeException e) {
        end("the subscriber failed: " + e);
      }
    }

    void end(String reason) {
      if (closed) {
        return;
      }
      closed = true;
      feeds.remove(this);
      try {
        listener.ended(reason);
      } catch (RuntimeException e) {
        // the subscriber is gone either way
      }
    }

    @Override
    public void close() {
      closed = true;
      feeds.remove(this);
    }
  }
}
