package io.tributary.testkit;

import io.tributary.state.KeyGroups;
import io.tributary.stream.KeySelector;
import io.tributary.stream.Record;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The input of one operator as steps — records of an input, and watermarks — run through {@link
 * OperatorHarness}es plainly and adversarially, so a test can check that the adversarial runs give
 * what the plain run gives:
 *
 * <ul>
 *   <li>{@link #runRestoringAfterEveryStep}: after every step the harness snapshots at a barrier,
 *       throws the operator and its state away and restores a fresh instance from the snapshot, and
 *       its output refuses every other offer;
 *   <li>{@link #runRescaled}: the steps up to a point run on some subtasks (records routed to the
 *       subtask owning their key group, watermarks to all), which then snapshot; the rest runs on
 *       another number of subtasks restored from those snapshots.
 * </ul>
 *
 * <pre>{@code
 * Script s = Script.create().record(LEFT, bid).record(RIGHT, person).watermark(1_000);
 * assertThat(s.runRestoringAfterEveryStep(harness).main()).containsExactlyInAnyOrderElementsOf(s.run(harness).main());
 * }</pre>
 *
 * <p>Compare outputs as multisets: timers due at the same time may fire in another order after a
 * restore, and a rescaled run's output is collected subtask by subtask.
 *
 * <p>A harness supplier returns a configured harness that is not open yet (the script opens it);
 * for forst state it must give each harness a directory of its own.
 */
public final class Script {
  /** One step of a script. */
  public sealed interface Step permits Element, Advance {}

  /** A record of input {@code input} (0 for an operator with one input). */
  public record Element(int input, Record record) implements Step {}

  /** A watermark. */
  public record Advance(long watermark) implements Step {}

  /**
   * What the operator produced over a run, its end of input included.
   *
   * @param main the main output (in emission order; for a rescaled run, subtask by subtask)
   * @param sides each side output's records
   * @param lateDropped records dropped as late
   * @param malformed records counted as malformed
   */
  public record Outcome(List<Record> main, Map<String, List<Record>> sides, long lateDropped, long malformed) {}

  private final List<Step> steps = new ArrayList<>();

  private Script() {}

  public static Script create() {
    return new Script();
  }

  public Script record(Record record) {
    return record(0, record);
  }

  public Script record(int input, Record record) {
    steps.add(new Element(input, record));
    return this;
  }

  public Script records(int input, List<Record> records) {
    records.forEach(r -> record(input, r));
    return this;
  }

  public Script watermark(long watermark) {
    steps.add(new Advance(watermark));
    return this;
  }

  public List<Step> steps() {
    return List.copyOf(steps);
  }

  /** Runs every step, then ends the input, in one harness from {@code harness}. */
  public Outcome run(Supplier<OperatorHarness> harness) {
    try (OperatorHarness h = harness.get().open()) {
      steps.forEach(step -> apply(h, step));
      h.endInput();
      return outcome(List.of(h));
    }
  }

  /**
   * Runs every step with an output that refuses every other offer, snapshotting and restoring into
   * a fresh operator instance after each step, then ends the input.
   */
  public Outcome runRestoringAfterEveryStep(Supplier<OperatorHarness> harness) {
    try (OperatorHarness h = harness.get().refuseEveryOtherOffer().open()) {
      for (Step step : steps) {
        apply(h, step);
        h.snapshotAndRestore();
      }
      h.endInput();
      return outcome(List.of(h));
    }
  }

  /**
   * Runs the first {@code cut} steps on {@code before} subtasks, snapshots them all, and the rest on
   * {@code after} subtasks restored from those snapshots (of {@code maxParallelism} key groups).
   * Records of input {@code i} go to the subtask that owns the key group of {@code keys.get(i)}'s
   * key; watermarks to every subtask. The harnesses must share one object store.
   *
   * @param harness gives the harness of a subtask: configured, with {@link OperatorHarness#subtask}
   *     still to set, not open
   */
  public Outcome runRescaled(Supplier<OperatorHarness> harness, List<KeySelector> keys, int maxParallelism,
      int before, int after, int cut) {
    List<OperatorHarness> first = open(harness, before, maxParallelism, List.of());
    steps.subList(0, cut).forEach(step -> route(first, step, keys, maxParallelism));
    List<OperatorHarness.OperatorSnapshot> snapshots = new ArrayList<>();
    for (OperatorHarness h : first) {
      snapshots.add(h.snapshot());
    }
    List<OperatorHarness> second = open(harness, after, maxParallelism, snapshots);
    try {
      steps.subList(cut, steps.size()).forEach(step -> route(second, step, keys, maxParallelism));
      second.forEach(OperatorHarness::endInput);
      List<OperatorHarness> all = new ArrayList<>(first);
      all.addAll(second);
      return outcome(all);
    } finally {
      first.forEach(OperatorHarness::close);
      second.forEach(OperatorHarness::close);
    }
  }

  private static List<OperatorHarness> open(Supplier<OperatorHarness> harness, int parallelism, int maxParallelism,
      List<OperatorHarness.OperatorSnapshot> snapshots) {
    List<OperatorHarness> hs = new ArrayList<>();
    for (int i = 0; i < parallelism; i++) {
      hs.add(harness.get().subtask(i, parallelism, maxParallelism).restore(snapshots));
    }
    return hs;
  }

  private static void route(List<OperatorHarness> subtasks, Step step, List<KeySelector> keys, int maxParallelism) {
    if (step instanceof Element e) {
      int keyGroup = keys.get(e.input()).keyOf(e.record()).keyGroup(maxParallelism);
      apply(subtasks.get(KeyGroups.subtaskFor(keyGroup, maxParallelism, subtasks.size())), step);
    } else {
      subtasks.forEach(h -> apply(h, step));
    }
  }

  private static void apply(OperatorHarness h, Step step) {
    if (step instanceof Element e) {
      h.processElement(e.input(), e.record());
    } else if (step instanceof Advance a) {
      h.processWatermark(a.watermark());
      while (h.hasPendingWatermark()) {
        h.resumeWatermark();
      }
    }
  }

  private static Outcome outcome(List<OperatorHarness> harnesses) {
    List<Record> main = new ArrayList<>();
    Map<String, List<Record>> sides = new LinkedHashMap<>();
    long late = 0;
    long malformed = 0;
    for (OperatorHarness h : harnesses) {
      main.addAll(h.output());
      h.sideOutputs().forEach((name, records) -> sides.computeIfAbsent(name, n -> new ArrayList<>()).addAll(records));
      late += h.metrics().lateDropped();
      malformed += h.metrics().malformed();
    }
    return new Outcome(main, sides, late, malformed);
  }
}
