package io.tributary.worker.window;

import io.tributary.state.store.InMemoryObjectStore;
import static io.tributary.testkit.Rows.maps;
import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.plan.AggregatePlan;
import io.tributary.plan.AggregatePlan.Function;
import io.tributary.plan.WindowAggregatePlan;
import io.tributary.plan.WindowPlan;
import io.tributary.state.KeyGroups;
import io.tributary.stream.KeySelector;
import io.tributary.stream.Record;
import io.tributary.stream.Schema;
import io.tributary.testkit.OperatorHarness;
import io.tributary.testkit.OperatorHarness.OperatorSnapshot;
import io.tributary.testkit.Rows;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Snapshot and restore are invisible: a window operator restored into a fresh instance after every
 * input element, or rescaled at random points, emits what an uninterrupted instance emits, step by
 * step (within one step, timers of the same time may fire in another order).
 */
class WindowOperatorRestoreTest {
  private static final int MAX_PARALLELISM = 16;
  private static final List<AggregatePlan> AGGREGATES = List.of(
      new AggregatePlan("n", Function.COUNT, null),
      new AggregatePlan("total", Function.SUM, "price"),
      new AggregatePlan("high", Function.MAX, "price"),
      new AggregatePlan("mean", Function.AVG, "price"));
  /** Aggregates that merge exactly: a sliding window's records go to its panes (see {@link WindowOperator}). */
  private static final List<AggregatePlan> EXACT_AGGREGATES = List.of(
      new AggregatePlan("n", Function.COUNT, null),
      new AggregatePlan("high", Function.MAX, "price"),
      new AggregatePlan("low", Function.MIN, "price"),
      new AggregatePlan("prices", Function.COUNT_DISTINCT, "price"));

  private static WindowAggregatePlan plan(WindowPlan window, long lateness, String lateOutput) {
    return plan(window, lateness, lateOutput, AGGREGATES);
  }

  private static WindowAggregatePlan plan(WindowPlan window, long lateness, String lateOutput,
      List<AggregatePlan> aggregates) {
    return new WindowAggregatePlan("w", List.of("auction"), window, lateness, lateOutput, aggregates);
  }

  @Test
  void tumbling() {
    assertRestoresAreInvisible(plan(WindowPlan.tumbling(10), 0, "late"), script("""
        auction | price | ts
        1       | 5     | 0
        2       | 1.5   | 3
        1       | 7     | 9
        WM 8
        1       | 2     | 10
        WM 9
        1       | 4     | 4
        2       | null  | 12
        WM 25
        3       | 1     | 26
        """));
  }

  @Test
  void sliding() {
    assertRestoresAreInvisible(plan(WindowPlan.sliding(10, 5), 0, null), script("""
        auction | price | ts
        1       | 5     | 7
        1       | 2.25  | 12
        2       | 3     | 14
        WM 9
        1       | 1     | 8
        WM 14
        2       | 6     | 21
        1       | 8     | 13
        """));
  }

  @Test
  void slidingInPanes() {
    WindowAggregatePlan plan = plan(WindowPlan.sliding(10, 5), 0, "late", EXACT_AGGREGATES);
    assertSlices(plan, true);
    assertRestoresAreInvisible(plan, script("""
        auction | price | ts
        1       | 5     | 0
        2       | 1.5   | 3
        1       | 7     | 6
        WM 4
        1       | 2     | 10
        WM 9
        1       | 4     | 4
        2       | null  | 12
        WM 25
        3       | 1     | 26
        """));
  }

  @Test
  void slidingInPanesWithLatenessReFires() {
    WindowAggregatePlan plan = plan(WindowPlan.sliding(10, 5), 10, "late", EXACT_AGGREGATES);
    assertSlices(plan, true);
    List<Step> steps = script("""
        auction | price | ts
        1       | 5     | 0
        1       | 7     | 6
        WM 9
        1       | 4     | 4
        WM 14
        1       | 3     | 8
        1       | 9     | 2
        WM 30
        1       | 1     | 12
        """);
    assertRestoresAreInvisible(plan, steps);
    Run run = run(plan, steps, false);
    // at WM 9 [-5, 5) and [0, 10) fire; ts 4 re-fires both (the window that ends last first); at WM
    // 14 [5, 15) fires and [-5, 5) is cleaned up; ts 8 re-fires [5, 15) and [0, 10); ts 2 only [0,
    // 10); at WM 30 every window is late: ts 12 goes to the late output
    assertThat(run.main.stream().flatMap(List::stream).map(r -> r.get("window_start") + ":" + r.get("n") + ":"
        + r.get("high"))).containsExactly("-5:1:5", "0:2:7", "0:3:7", "-5:2:5", "5:1:7", "5:2:7", "0:4:7",
        "0:5:9");
    assertThat(run.late.stream().mapToInt(List::size).sum()).isEqualTo(1);
  }

  @Test
  void panesLeaveNothingBehind() {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    for (int round = 0; round < 40; round++) {
      long lateness = random.nextInt(3) * 15L;
      WindowAggregatePlan plan = plan(WindowPlan.sliding(20, 5), lateness, null, EXACT_AGGREGATES);
      OperatorHarness h = harness(plan, new InMemoryObjectStore(), 0, 1).open();
      assertThat(((WindowOperator) h.operator()).slicing()).isTrue();
      randomScript(random).forEach(step -> step.apply(h));
      String why = "seed " + seed + ", round " + round + ", lateness " + lateness;
      assertThat(h.output()).as(why).isNotEmpty();
      assertThat(h.stateBackend().approximateEntryCount()).as("panes and windows left, " + why).isZero();
      assertThat(h.timers().size()).as("timers left, " + why).isZero();
      h.close();
    }
  }

  @Test
  void onlyExactlyMergingAggregatesOnTheHeapSlice(@TempDir Path dir) {
    assertSlices(plan(WindowPlan.sliding(10, 5), 0, null, EXACT_AGGREGATES), true);
    assertSlices(plan(WindowPlan.sliding(10, 5), 0, null), false); // sum and avg
    assertSlices(plan(WindowPlan.sliding(10, 4), 0, null, EXACT_AGGREGATES), false); // 4 does not divide 10
    assertSlices(plan(WindowPlan.tumbling(10), 0, null, EXACT_AGGREGATES), false);
    WindowAggregatePlan plan = plan(WindowPlan.sliding(10, 5), 0, null, EXACT_AGGREGATES);
    OperatorHarness onForst = harness(plan, new InMemoryObjectStore(), 0, 1).forstState(dir).open();
    assertThat(((WindowOperator) onForst.operator()).slicing()).as("on forst, which adds without reading").isFalse();
    onForst.close();
  }

  private static void assertSlices(WindowAggregatePlan plan, boolean slices) {
    OperatorHarness h = harness(plan, new InMemoryObjectStore(), 0, 1).open();
    assertThat(((WindowOperator) h.operator()).slicing()).as(plan.window() + " " + plan.aggregates()).isEqualTo(slices);
    h.close();
  }

  /**
   * State written per window (by an operator that does not slice, as before panes) restores into
   * one that slices, and back (as when a job's aggregates change): at random steps the operator is
   * restored with slicing on or off, and emits what one that never slices emits.
   */
  @Test
  void panesAndWindowsRestoreIntoEachOther() {
    long seed = System.nanoTime();
    System.out.println("WindowOperatorRestoreTest panes seed " + seed);
    Random random = new Random(seed);
    for (int round = 0; round < 40; round++) {
      long slide = 2 + random.nextInt(10);
      // up to 16 panes a window folds by looking each up, more from the key's entries
      int panes = random.nextBoolean() ? 2 + random.nextInt(4) : 17 + random.nextInt(8);
      WindowAggregatePlan plan = plan(WindowPlan.sliding(slide * panes, slide),
          random.nextInt(3) * 15L, random.nextBoolean() ? "late" : null, EXACT_AGGREGATES);
      List<Step> steps = randomScript(random);
      String why = "seed " + seed + ", round " + round + ", " + plan.window() + ", lateness "
          + plan.allowedLatenessMillis();
      Run perWindow = runSwitching(plan, steps, random, 0);
      assertSameRun(run(plan, steps, false), perWindow, why + ", in panes");
      assertSameRun(runSwitching(plan, steps, random, 3), perWindow, why + ", switching");
    }
  }

  /**
   * A run restored after every step, slicing or not at random ({@code switchOdds} in 4 that it
   * slices; 0: never).
   */
  private static Run runSwitching(WindowAggregatePlan plan, List<Step> steps, Random random, int switchOdds) {
    return run(plan, steps, true, null, h -> ((WindowOperator) h.operator()).slicing(random.nextInt(4) < switchOdds));
  }

  @Test
  void sessionsWithMerging() {
    assertRestoresAreInvisible(plan(WindowPlan.session(10), 50, "late"), script("""
        auction | price | ts
        1       | 1     | 0
        1       | 2     | 30
        2       | 3     | 5
        WM 12
        1       | 4     | 20
        1       | 5     | 11
        WM 45
        1       | 6     | 3
        2       | 7     | 14
        1       | 8     | 41
        WM 120
        1       | 9     | 1
        """));
  }

  @Test
  void latenessReFiresAndLateRecords() {
    assertRestoresAreInvisible(plan(WindowPlan.tumbling(10), 5, "late"), script("""
        auction | price | ts
        1       | 1     | 1
        2       | 2     | 2
        WM 9
        1       | 3     | 5
        1       | 4     | 8
        WM 12
        2       | 5     | 0
        WM 14
        1       | 6     | 3
        1       | 7     | 15
        """));
  }

  @Test
  void randomScriptsSurviveARestoreAfterEveryStep() {
    long seed = System.nanoTime();
    System.out.println("WindowOperatorRestoreTest restore-after-every-step seed " + seed);
    Random random = new Random(seed);
    for (int round = 0; round < 25; round++) {
      WindowAggregatePlan plan = randomPlan(random);
      List<Step> steps = randomScript(random);
      String why = "seed " + seed + ", round " + round + ", " + plan.window() + ", lateness "
          + plan.allowedLatenessMillis();
      Run expected = run(plan, steps, false);
      Run actual = run(plan, steps, true);
      assertSameRun(actual, expected, why);
    }
  }

  @Test
  void onForstStateRandomScriptsGiveWhatTheyGiveOnTheHeapThroughARestoreAfterEveryStep(@TempDir Path dir) {
    long seed = System.nanoTime();
    System.out.println("WindowOperatorRestoreTest forst seed " + seed);
    Random random = new Random(seed);
    for (int round = 0; round < 5; round++) {
      WindowAggregatePlan plan = randomPlan(random);
      List<Step> steps = randomScript(random);
      String why = "seed " + seed + ", round " + round + ", " + plan.window() + ", lateness "
          + plan.allowedLatenessMillis();
      assertSameRun(run(plan, steps, true, dir.resolve("round-" + round)), run(plan, steps, false), why);
    }
  }

  @Test
  void rescalingAtRandomPointsChangesNothing() {
    long seed = System.nanoTime();
    System.out.println("WindowOperatorRestoreTest rescale seed " + seed);
    Random random = new Random(seed);
    for (int round = 0; round < 25; round++) {
      WindowAggregatePlan plan = randomPlan(random);
      List<Step> steps = randomScript(random);
      String why = "seed " + seed + ", round " + round + ", " + plan.window();
      Run expected = run(plan, steps, false);
      Run actual = runRescaled(plan, steps, random);
      assertSameRun(actual, expected, why);
    }
  }

  @Test
  void onForstStateRescalingAtRandomPointsChangesNothing(@TempDir Path dir) {
    long seed = System.nanoTime();
    System.out.println("WindowOperatorRestoreTest forst rescale seed " + seed);
    Random random = new Random(seed);
    for (int round = 0; round < 5; round++) {
      WindowAggregatePlan plan = randomPlan(random);
      List<Step> steps = randomScript(random);
      String why = "seed " + seed + ", round " + round + ", " + plan.window();
      Run expected = run(plan, steps, false);
      Run actual = runRescaled(plan, steps, random, dir.resolve("round-" + round));
      assertSameRun(actual, expected, why);
    }
  }

  private static void assertRestoresAreInvisible(WindowAggregatePlan plan, List<Step> steps) {
    Run expected = run(plan, steps, false);
    assertThat(expected.main.stream().mapToInt(List::size).sum()).as("the scenario emits something").isPositive();
    assertSameRun(run(plan, steps, true), expected, plan.window().toString());
  }

  private static void assertSameRun(Run actual, Run expected, String why) {
    assertThat(actual.main).as(why).hasSameSizeAs(expected.main);
    for (int i = 0; i < expected.main.size(); i++) {
      assertThat(actual.main.get(i)).as(why + ", main output of step " + i)
          .containsExactlyInAnyOrderElementsOf(expected.main.get(i));
      assertThat(actual.late.get(i)).as(why + ", late output of step " + i)
          .containsExactlyInAnyOrderElementsOf(expected.late.get(i));
    }
    assertThat(actual.counters).as(why + ", metrics").isEqualTo(expected.counters);
  }

  /** One harness; with {@code restore}, a snapshot and a fresh instance after every step. */
  private static Run run(WindowAggregatePlan plan, List<Step> steps, boolean restore) {
    return run(plan, steps, restore, null);
  }

  /** The same with forst state, its local files under {@code forstDir} (null: heap state). */
  private static Run run(WindowAggregatePlan plan, List<Step> steps, boolean restore, Path forstDir) {
    return run(plan, steps, restore, forstDir, h -> { });
  }

  /** The same, {@code opened} given the harness's operator whenever it opens or restores. */
  private static Run run(WindowAggregatePlan plan, List<Step> steps, boolean restore, Path forstDir,
      Consumer<OperatorHarness> opened) {
    OperatorHarness h = harness(plan, new InMemoryObjectStore(), 0, 1);
    if (forstDir != null) {
      h.forstState(forstDir);
    }
    h.open();
    opened.accept(h);
    assertThat(h.stateBackend().getClass().getSimpleName()).as("the harness's state backend")
        .isEqualTo(forstDir == null ? "HeapKeyedStateBackend" : "CachingKeyedStateBackend");
    assertThat(h.timers().getClass().getSimpleName()).as("the harness's timers")
        .isEqualTo(forstDir == null ? "HeapTimerService" : "StateTimerService");
    Run run = new Run();
    for (Step step : steps) {
      int main = h.output().size();
      int late = h.sideOutput("late").size();
      step.apply(h);
      run.main.add(maps(h.output().subList(main, h.output().size())));
      run.late.add(maps(h.sideOutput("late").subList(late, h.sideOutput("late").size())));
      if (restore && !(step instanceof End)) {
        h.snapshotAndRestore();
        opened.accept(h);
      }
    }
    run.counters = counters(List.of(h));
    h.close();
    return run;
  }

  /**
   * Subtasks of one operator, records routed to the owner of their key, watermarks to every
   * subtask; at random steps every subtask snapshots and a new parallelism restores from all.
   */
  private static Run runRescaled(WindowAggregatePlan plan, List<Step> steps, Random random) {
    return runRescaled(plan, steps, random, null);
  }

  /** The same with forst state, each subtask's local files in a directory of its own under {@code forstDir}. */
  private static Run runRescaled(WindowAggregatePlan plan, List<Step> steps, Random random, Path forstDir) {
    InMemoryObjectStore store = new InMemoryObjectStore();
    KeySelector keys = new KeySelector(plan.keyBy());
    int[] generation = {0};
    List<OperatorHarness> subtasks = open(plan, store, 1 + random.nextInt(4), List.of(), forstDir, generation[0]++);
    List<OperatorHarness> retired = new ArrayList<>();
    Run run = new Run();
    for (Step step : steps) {
      List<Record> main = new ArrayList<>();
      List<Record> late = new ArrayList<>();
      List<int[]> sizes = subtasks.stream().map(h -> new int[] {h.output().size(), h.sideOutput("late").size()}).toList();
      if (step instanceof Input input) {
        int owner = KeyGroups.subtaskFor(keys.keyOf(input.record).keyGroup(MAX_PARALLELISM), MAX_PARALLELISM,
            subtasks.size());
        step.apply(subtasks.get(owner));
      } else {
        subtasks.forEach(step::apply);
      }
      for (int i = 0; i < subtasks.size(); i++) {
        OperatorHarness h = subtasks.get(i);
        main.addAll(h.output().subList(sizes.get(i)[0], h.output().size()));
        late.addAll(h.sideOutput("late").subList(sizes.get(i)[1], h.sideOutput("late").size()));
      }
      run.main.add(maps(main));
      run.late.add(maps(late));
      if (!(step instanceof End) && random.nextInt(4) == 0) {
        List<OperatorSnapshot> snapshots = subtasks.stream().map(OperatorHarness::snapshot).toList();
        subtasks.forEach(OperatorHarness::close);
        retired.addAll(subtasks);
        subtasks = open(plan, store, 1 + random.nextInt(4), snapshots, forstDir, generation[0]++);
      }
    }
    retired.addAll(subtasks);
    run.counters = counters(retired);
    subtasks.forEach(OperatorHarness::close);
    return run;
  }

  private static List<OperatorHarness> open(WindowAggregatePlan plan, InMemoryObjectStore store, int parallelism,
      List<OperatorSnapshot> snapshots, Path forstDir, int generation) {
    List<OperatorHarness> subtasks = new ArrayList<>();
    for (int i = 0; i < parallelism; i++) {
      OperatorHarness h = harness(plan, store, i, parallelism);
      if (forstDir != null) {
        h.forstState(forstDir.resolve("gen-" + generation + "-" + i));
      }
      subtasks.add(h.restore(snapshots));
    }
    return subtasks;
  }

  private static OperatorHarness harness(WindowAggregatePlan plan, InMemoryObjectStore store, int index,
      int parallelism) {
    return OperatorHarness.of(() -> new WindowOperator(plan))
        .subtask(index, parallelism, MAX_PARALLELISM)
        .objectStore(store)
        .timerNamespaceCodec(WindowOperator.namespaceCodec());
  }

  private static List<Long> counters(List<OperatorHarness> harnesses) {
    long[] c = new long[4];
    for (OperatorHarness h : harnesses) {
      c[0] += h.metrics().lateDropped();
      c[1] += h.metrics().lateSideOutput();
      c[2] += h.metrics().refired();
      c[3] += h.metrics().malformed();
    }
    return List.of(c[0], c[1], c[2], c[3]);
  }

  private static WindowAggregatePlan randomPlan(Random random) {
    long size = 5 + random.nextInt(40);
    WindowPlan window = switch (random.nextInt(3)) {
      case 0 -> WindowPlan.tumbling(size);
      case 1 -> random.nextBoolean() ? WindowPlan.sliding(size, Math.max(1, size / (1 + random.nextInt(4))))
          : WindowPlan.sliding(size - size % 5, 5); // made of panes
      default -> WindowPlan.session(1 + random.nextInt(20));
    };
    return plan(window, random.nextInt(3) * 15L, random.nextBoolean() ? "late" : null,
        random.nextBoolean() ? AGGREGATES : EXACT_AGGREGATES);
  }

  /** Records out of order by up to 60 ms, watermarks now and then at up to 40 ms behind the maximum. */
  private static List<Step> randomScript(Random random) {
    List<Step> steps = new ArrayList<>();
    Schema schema = Schema.of("auction", "price", "ts");
    long maxSeen = 0;
    long watermark = Long.MIN_VALUE;
    for (int i = 0, n = 10 + random.nextInt(50); i < n; i++) {
      long ts = Math.max(0, maxSeen + random.nextInt(20) - random.nextInt(60));
      maxSeen = Math.max(maxSeen, ts);
      Object price = switch (random.nextInt(6)) {
        case 0 -> null;
        case 1 -> random.nextInt(40) / 4.0; // exact in binary: sums do not depend on the order
        default -> (long) random.nextInt(100);
      };
      steps.add(new Input(new Record(schema, new Object[] {(long) random.nextInt(5), price, ts}, ts)));
      long candidate = maxSeen - random.nextInt(40);
      if (random.nextInt(3) == 0 && candidate > watermark) {
        watermark = candidate;
        steps.add(new Mark(watermark));
      }
    }
    steps.add(new End());
    return steps;
  }

  /**
   * A table of records ({@code auction | price | ts}) with {@code WM <t>} lines for watermarks; the
   * end of input is added at the end.
   */
  private static List<Step> script(String text) {
    List<Step> steps = new ArrayList<>();
    String header = null;
    for (String line : text.strip().split("\n")) {
      String t = line.strip();
      if (header == null) {
        header = t;
      } else if (t.startsWith("WM ")) {
        steps.add(new Mark(Long.parseLong(t.substring(3).strip())));
      } else {
        steps.add(new Input(Rows.parse(header + "\n" + t, "ts").get(0)));
      }
    }
    steps.add(new End());
    return steps;
  }

  /** What a run emitted: per step, the main and late output; then the metrics. */
  private static final class Run {
    final List<List<Map<String, Object>>> main = new ArrayList<>();
    final List<List<Map<String, Object>>> late = new ArrayList<>();
    List<Long> counters;
  }

  private sealed interface Step permits Input, Mark, End {
    void apply(OperatorHarness h);
  }

  private record Input(Record record) implements Step {
    @Override
    public void apply(OperatorHarness h) {
      h.processElement(record);
    }
  }

  private record Mark(long watermark) implements Step {
    @Override
    public void apply(OperatorHarness h) {
      h.processWatermark(watermark);
    }
  }

  private record End() implements Step {
    @Override
    public void apply(OperatorHarness h) {
      h.endInput();
    }
  }
}
