package io.tributary.control;

import io.tributary.worker.job.LocalJob;
import io.tributary.worker.task.OutputTap;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Live output of jobs: reads the output samples ({@link OutputTap}) of a job's operators, and
 * feeds subscribers with what is new on every {@link #poll()} (the metrics thread's). A subscription
 * follows the job across restarts of its run: the taps of a new run are read from their start.
 */
final class OutputFeeds {
  private final Set<Feed> feeds = ConcurrentHashMap.newKeySet();

  /** The output samples of the job's run now, else of its last run in this process, or null. */
  static JobOutput current(ManagedJob job) {
    LocalJob j = job.localJob();
    return j != null ? JobOutput.of(j) : job.metrics.lastOutput();
  }

  /** What the taps keep from {@code next} on (by tap: the first seq wanted), oldest first. */
  static List<OutputRecord> read(List<OutputTap> taps, Map<OutputTap, Long> next) {
    List<OutputRecord> out = new ArrayList<>();
    for (OutputTap tap : taps) {
      long from = next.getOrDefault(tap, 0L);
      List<OutputTap.Entry> entries = tap.since(from);
      for (OutputTap.Entry e : entries) {
        out.add(OutputRecord.of(tap, e));
      }
      if (!entries.isEmpty()) {
        next.put(tap, entries.get(entries.size() - 1).seq() + 1);
      }
    }
    out.sort(Comparator.comparing(OutputRecord::emittedAt));
    return out;
  }

  OutputSubscription subscribe(ManagedJob job, String operatorId, OutputListener listener) {
    Feed f = new Feed(job, operatorId, listener);
    feeds.add(f);
    return f;
  }

  /** Delivers what is new to every subscriber. Metrics thread. */
  void poll() {
    for (Feed f : feeds) {
      f.poll();
    }
  }

  /** Ends the subscriptions to {@code job}. */
  void jobGone(ManagedJob job, String reason) {
    for (Feed f : feeds) {
      if (f.job == job) {
        f.end(reason);
      }
    }
  }

  void closeAll(String reason) {
    for (Feed f : feeds) {
      f.end(reason);
    }
  }

  private final class Feed implements OutputSubscription {
    final ManagedJob job;
    final String operatorId;
    final OutputListener listener;
    /** Guarded by this: per tap, the next seq to deliver. */
    private Map<OutputTap, Long> next = new IdentityHashMap<>();
    private volatile boolean closed;

    Feed(ManagedJob job, String operatorId, OutputListener listener) {
      this.job = job;
      this.operatorId = operatorId;
      this.listener = listener;
    }

    synchronized void poll() {
      if (closed) {
        return;
      }
      if (job.retired()) {
        end("job '" + job.name + "' was deleted");
        return;
      }
      JobOutput output = current(job);
      List<OutputTap> taps = output == null ? List.of() : output.taps(operatorId);
      Map<OutputTap, Long> kept = new IdentityHashMap<>();
      for (OutputTap t : taps) {
        kept.put(t, next.getOrDefault(t, 0L)); // forget the taps of an earlier run
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
