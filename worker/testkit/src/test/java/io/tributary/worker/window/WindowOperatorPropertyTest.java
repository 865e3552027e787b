package io.tributary.worker.window;

import static io.tributary.testkit.Rows.maps;
import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.plan.AggregatePlan;
import io.tributary.plan.AggregatePlan.Function;
import io.tributary.plan.WindowAggregatePlan;
import io.tributary.plan.WindowPlan;
import io.tributary.stream.Record;
import io.tributary.stream.Schema;
import io.tributary.testkit.OperatorHarness;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Contract C3/C4: for input shuffled within maxOutOfOrderness and watermarks {@code max ts seen -
 * bound}, results equal those of the ordered input, and equal a brute-force computation. On forst
 * with a state cache of a few entries and snapshots now and then, windows are added to without
 * being read ({@code WindowState.add}) and their accumulators leave the cache between records: the
 * results are the same.
 */
class WindowOperatorPropertyTest {
  private static final Schema BID = Schema.of("auction", "price");
  private static final long BOUND = 50;

  @TempDir
  Path tmp;

  @Test
  void onForstWithATinyStateCacheAndSnapshotsTheResultsAreTheSame() {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    for (int round = 0; round < 20; round++) {
      WindowPlan window = randomWindow(random);
      WindowAggregatePlan plan = randomPlan(window, random);
      List<Record> shuffled = shuffleWithinBound(randomInput(random), random);
      int cacheEntries = random.nextInt(4);
      int snapshotEvery = 5 + random.nextInt(40);
      Path dir = tmp.resolve("round-" + round);
      List<Map<String, Object>> onForst = run(plan, shuffled,
          () -> OperatorHarness.of(() -> new WindowOperator(plan)).forstState(dir, cacheEntries)
              .timerNamespaceCodec(WindowOperator.namespaceCodec()), snapshotEvery);
      String why = "seed " + seed + ", round " + round + ", window " + window + ", cache " + cacheEntries
          + " entries, a snapshot every " + snapshotEvery + " records";
      assertThat(onForst).as(why).containsExactlyInAnyOrderElementsOf(run(plan, shuffled));
    }
  }

  @Test
  void shuffledWithinTheBoundGivesIdenticalResults() {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    for (int round = 0; round < 30; round++) {
      WindowPlan window = randomWindow(random);
      WindowAggregatePlan plan = randomPlan(window, random);
      List<Record> ordered = randomInput(random);
      List<Record> shuffled = shuffleWithinBound(ordered, random);

      List<Map<String, Object>> expected = run(plan, ordered);
      List<Map<String, Object>> actual = run(plan, shuffled);
      String why = "seed " + seed + ", round " + round + ", window " + window;
      assertThat(actual).as(why).containsExactlyInAnyOrderElementsOf(expected);
      assertThat(expected).as(why).containsExactlyInAnyOrderElementsOf(bruteForce(plan, ordered));
    }
  }

  /**
   * Count, sum and max per auction in {@code window}, or count, max and min (which a sliding window
   * made of panes slices), with an allowed lateness of 0, 20 or 40.
   */
  private static WindowAggregatePlan randomPlan(WindowPlan window, Random random) {
    AggregatePlan third = random.nextBoolean() ? new AggregatePlan("total", Function.SUM, "price")
        : new AggregatePlan("low", Function.MIN, "price");
    return new WindowAggregatePlan("w", List.of("auction"), window, random.nextInt(3) * 20L, "late", List.of(
        new AggregatePlan("n", Function.COUNT, null), third, new AggregatePlan("high", Function.MAX, "price")));
  }

  private static WindowPlan randomWindow(Random random) {
    long size = 10 + random.nextInt(100);
    return switch (random.nextInt(4)) {
      case 0 -> WindowPlan.tumbling(size);
      case 1 -> random.nextBoolean() ? WindowPlan.sliding(size, Math.max(1, size / (1 + random.nextInt(5))))
          : WindowPlan.sliding(size - size % 10, 10); // made of panes
      case 2 -> WindowPlan.cumulate(size * 4, size);
      default -> WindowPlan.session(1 + random.nextInt(40));
    };
  }

  private static List<Record> randomInput(Random random) {
    List<Record> records = new ArrayList<>();
    long ts = random.nextInt(1000) - 500;
    for (int i = 0, n = 50 + random.nextInt(150); i < n; i++) {
      ts += random.nextInt(30);
      Object price = random.nextInt(10) == 0 ? null : (Object) (long) random.nextInt(100);
      records.add(new Record(BID, new Object[] {(long) random.nextInt(4), price}, ts));
    }
    return records;
  }

  /** Arrival order by {@code ts + delay}, delay in [0, BOUND): no record is behind max seen - BOUND. */
  private static List<Record> shuffleWithinBound(List<Record> ordered, Random random) {
    Map<Record, Long> arrival = new HashMap<>();
    for (Record r : ordered) {
      arrival.put(r, r.timestamp() + random.nextInt((int) BOUND));
    }
    List<Record> shuffled = new ArrayList<>(ordered);
    shuffled.sort(Comparator.comparing(arrival::get));
    return shuffled;
  }

  private static List<Map<String, Object>> run(WindowAggregatePlan plan, List<Record> input) {
    return run(plan, input, () -> OperatorHarness.of(() -> new WindowOperator(plan)), 0);
  }

  /** Runs {@code input} through a harness; with {@code snapshotEvery > 0}, snapshots and restores that often. */
  private static List<Map<String, Object>> run(WindowAggregatePlan plan, List<Record> input,
      Supplier<OperatorHarness> harness, int snapshotEvery) {
    OperatorHarness h = harness.get().open();
    long maxSeen = Long.MIN_VALUE;
    int n = 0;
    for (Record r : input) {
      if (snapshotEvery > 0 && ++n % snapshotEvery == 0) {
        h = h.snapshotAndRestore();
      }
      h.processElement(r);
      if (r.timestamp() > maxSeen) {
        maxSeen = r.timestamp();
        h.processWatermark(maxSeen - BOUND);
      }
    }
    h.endInput();
    assertThat(h.sideOutput("late")).isEmpty();
    assertThat(h.metrics().refired()).isZero();
    return maps(h.output());
  }

  private static List<Map<String, Object>> bruteForce(WindowAggregatePlan plan, List<Record> input) {
    WindowPlan window = plan.window();
    Map<List<Object>, List<Record>> byWindow = new TreeMap<>(Comparator.comparing(Object::toString));
    Map<Long, List<Record>> byKey = new TreeMap<>();
    for (Record r : input) {
      byKey.computeIfAbsent((Long) r.get("auction"), k -> new ArrayList<>()).add(r);
    }
    byKey.forEach((key, records) -> {
      for (long[] w : windowsOf(window, records)) {
        List<Record> in = records.stream()
            .filter(r -> r.timestamp() >= w[0] && r.timestamp() < w[1]).toList();
        byWindow.put(List.of(key, w[0], w[1]), in);
      }
    });
    List<Map<String, Object>> out = new ArrayList<>();
    byWindow.forEach((k, records) -> {
      Map<String, Object> m = new java.util.LinkedHashMap<>();
      m.put("auction", k.get(0));
      m.put("window_start", k.get(1));
      m.put("window_end", k.get(2));
      m.put("n", (long) records.size());
      List<Long> prices = records.stream().map(r -> (Long) r.get("price")).filter(p -> p != null).toList();
      Map<String, Object> aggregates = new HashMap<>();
      aggregates.put("total", prices.isEmpty() ? null : prices.stream().mapToLong(Long::longValue).sum());
      aggregates.put("high", prices.isEmpty() ? null : prices.stream().mapToLong(Long::longValue).max().getAsLong());
      aggregates.put("low", prices.isEmpty() ? null : prices.stream().mapToLong(Long::longValue).min().getAsLong());
      for (AggregatePlan a : plan.aggregates().subList(1, plan.aggregates().size())) {
        m.put(a.name(), aggregates.get(a.name()));
      }
      m.put("revision", 0L);
      out.add(m);
    });
    return out;
  }

  /** The non-empty windows of one key's records (sorted by time). */
  private static List<long[]> windowsOf(WindowPlan window, List<Record> records) {
    List<long[]> windows = new ArrayList<>();
    if (window.type() == WindowPlan.Type.SESSION) {
      long start = Long.MIN_VALUE;
      long end = Long.MIN_VALUE;
      for (Record r : records) {
        if (r.timestamp() > end) {
          if (start != Long.MIN_VALUE) {
            windows.add(new long[] {start, end});
          }
          start = r.timestamp();
        }
        end = Math.max(end, r.timestamp() + window.gapMillis());
      }
      windows.add(new long[] {start, end});
      return windows;
    }
    if (window.type() == WindowPlan.Type.CUMULATE) {
      java.util.Set<List<Long>> cumulating = new java.util.LinkedHashSet<>();
      for (Record r : records) {
        long start = Math.floorDiv(r.timestamp(), window.sizeMillis()) * window.sizeMillis();
        for (long end = start + window.slideMillis(); end <= start + window.sizeMillis(); end += window.slideMillis()) {
          if (end > r.timestamp()) {
            cumulating.add(List.of(start, end));
          }
        }
      }
      cumulating.forEach(w -> windows.add(new long[] {w.get(0), w.get(1)}));
      return windows;
    }
    java.util.Set<Long> starts = new java.util.TreeSet<>();
    for (Record r : records) {
      for (long s = Math.floorDiv(r.timestamp(), window.slideMillis()) * window.slideMillis();
          s > r.timestamp() - window.sizeMillis(); s -= window.slideMillis()) {
        starts.add(s);
      }
    }
    starts.forEach(s -> windows.add(new long[] {s, s + window.sizeMillis()}));
    return windows;
  }
}
