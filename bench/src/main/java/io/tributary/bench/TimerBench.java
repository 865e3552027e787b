package io.tributary.bench;

import io.tributary.cli.client.CliFailure;
import io.tributary.cli.client.ExitCodes;
import io.tributary.state.Key;
import io.tributary.state.KeyGroupRange;
import io.tributary.state.heap.HeapKeyedStateBackend;
import io.tributary.worker.timer.HeapTimerService;
import io.tributary.worker.window.TimeWindow;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code tributary bench timers}: the heap timer service alone, as a window operator drives it —
 * nanoseconds per record for sliding windows (each record registers the timers of the windows it
 * falls in; most are new) and for session windows (a record that extends its key's session
 * deletes that session's timer and registers the extended one), with the watermark a second
 * behind and due timers fired as it moves. Every round ends with all timers fired and checks that
 * each fired once. The keys are made up front, so they lie closer together in memory than a job's.
 */
@Command(name = "timers", description = "Heap timer service: ns per record, sliding and session windows.")
final class TimerBench implements Callable<Integer> {
  private static final int MAX_PARALLELISM = 128;
  private static final long SLIDING_SIZE = 10_000;
  private static final long SLIDING_HOP = 2_000;
  private static final long SESSION_GAP = 10_000;
  /** Records per millisecond of event time. */
  private static final int RATE = 2;
  /** The watermark moves (and due timers fire) every this many records. */
  private static final int WATERMARK_EVERY = 400;
  private static final long WATERMARK_LAG = 1_000;

  @Option(names = "--keys", defaultValue = "100000", description = "distinct keys (default ${DEFAULT-VALUE})")
  int keys;

  @Option(names = "--records", defaultValue = "5000000", description = "records per round (default ${DEFAULT-VALUE})")
  long records;

  @Option(names = "--repeat", defaultValue = "5",
      description = "measured rounds, after one warm-up (default ${DEFAULT-VALUE})")
  int repeat;

  @Override
  public Integer call() {
    if (keys < 1 || records < 1 || repeat < 1) {
      throw new CliFailure(ExitCodes.INVALID, "--keys, --records and --repeat must be at least 1");
    }
    run(System.out, keys, records, repeat);
    return 0;
  }

  static void run(PrintStream out, int keys, long records, int repeat) {
    Key[] ks = new Key[keys];
    for (int i = 0; i < keys; i++) {
      ks[i] = Key.of((long) i * 7919);
    }
    out.printf("bench timers: %,d keys, %,d records per round, %d records per ms, watermark %d ms behind%n",
        keys, records, RATE, WATERMARK_LAG);
    for (boolean sessions : new boolean[] {false, true}) {
      double[] ns = new double[repeat];
      long fired = 0;
      for (int round = -1; round < repeat; round++) {
        Round r = new Round(ks, sessions);
        long start = System.nanoTime();
        r.records(records);
        double perRecord = (double) (System.nanoTime() - start) / records;
        fired = r.drain();
        if (round >= 0) {
          ns[round] = perRecord;
        }
      }
      Arrays.sort(ns);
      out.printf("%-8s %8.1f ns/record (median of %d; min %.1f, max %.1f), %,d timers fired per round%n",
          sessions ? "session" : "sliding", ns[repeat / 2], repeat, ns[0], ns[repeat - 1], fired);
    }
  }

  /** One round on a fresh service. */
  private static final class Round {
    private final Key[] keys;
    private final boolean sessions;
    private final HeapKeyedStateBackend backend = new HeapKeyedStateBackend(new KeyGroupRange(0, MAX_PARALLELISM),
        MAX_PARALLELISM);
    private final HeapTimerService timers = new HeapTimerService(backend);
    private final SplittableRandom random = new SplittableRandom(42);
    /** Per key, its open session (sessions only). */
    private final TimeWindow[] session;
    private long registered;
    private long fired;

    Round(Key[] keys, boolean sessions) {
      this.keys = keys;
      this.sessions = sessions;
      this.session = sessions ? new TimeWindow[keys.length] : null;
    }

    void records(long n) {
      for (long i = 0; i < n; i++) {
        long ts = i / RATE;
        int k = random.nextInt(keys.length);
        backend.setCurrentKey(keys[k]);
        if (sessions) {
          session(k, ts);
        } else {
          for (long start = ts - ts % SLIDING_HOP; start > ts - SLIDING_SIZE; start -= SLIDING_HOP) {
            register(new TimeWindow(start, start + SLIDING_SIZE));
          }
        }
        if (i % WATERMARK_EVERY == 0) {
          fire(ts - WATERMARK_LAG);
        }
      }
    }

    private void session(int k, long ts) {
      TimeWindow open = session[k];
      TimeWindow next;
      if (open != null && open.end() > ts && open.maxTimestamp() > timers.currentWatermark()) {
        timers.delete(open, open.maxTimestamp());
        registered--;
        next = new TimeWindow(open.start(), Math.max(open.end(), ts + SESSION_GAP));
      } else {
        next = new TimeWindow(ts, ts + SESSION_GAP);
      }
      session[k] = next;
      register(next);
    }

    private void register(TimeWindow w) {
      int before = timers.size();
      timers.register(w, w.maxTimestamp());
      registered += timers.size() - before;
    }

    private void fire(long watermark) {
      if (watermark < timers.currentWatermark()) {
        return;
      }
      while (timers.pollDue(watermark) != null) {
        fired++;
      }
      timers.advanceWatermark(watermark);
    }

    /** Fires every timer left; returns how many fired in the round, checked against those registered. */
    long drain() {
      fire(Long.MAX_VALUE);
      if (fired != registered || timers.size() != 0) {
        throw new IllegalStateException("timers lost: " + registered + " registered, " + fired + " fired, "
            + timers.size() + " left");
      }
      return fired;
    }
  }
}
