package io.tributary.worker.join;

import static io.tributary.worker.join.JoinHarnesses.auction;
import static io.tributary.worker.join.JoinHarnesses.bid;
import static io.tributary.worker.join.JoinHarnesses.counts;
import static io.tributary.worker.join.JoinHarnesses.harnesses;
import static io.tributary.worker.join.JoinHarnesses.input;
import static io.tributary.worker.operator.TwoInputOperator.LEFT;
import static io.tributary.worker.operator.TwoInputOperator.RIGHT;
import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.plan.JoinPlan;
import io.tributary.plan.WindowPlan;
import io.tributary.stream.Record;
import io.tributary.testkit.OperatorHarness;
import io.tributary.testkit.Rows;
import io.tributary.testkit.Script;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The window join: pairs of equal keys in the same window, emitted when the window ends; late
 * records dropped; results independent of arrival order within the watermark bound, of restores
 * after any input and of rescaling, on heap and forst state.
 */
class WindowJoinOperatorTest {
  private static final JoinPlan TUMBLING = JoinPlan.window("j", List.of("auction"), List.of("id"),
      WindowPlan.tumbling(10), null, null);

  @Test
  void pairsOfAWindowAreEmittedWhenItEndsAndItsStateIsDropped() {
    try (OperatorHarness h = harnesses(TUMBLING, null).get().open()) {
      h.processElement(LEFT, bid(1, 5, 2));
      h.processElement(LEFT, bid(1, 7, 8));
      h.processElement(RIGHT, auction(1, "ann", 4));
      h.processElement(RIGHT, auction(2, "bob", 5));
      h.processElement(RIGHT, auction(1, "cyd", 12));
      h.processWatermark(8);
      assertThat(h.output()).isEmpty();

      h.processWatermark(9);
      assertThat(Rows.maps(h.output())).containsExactlyInAnyOrderElementsOf(Rows.maps(Rows.parse("""
          window_start | window_end | auction | price | ts | id | seller | r.ts
          0            | 10         | 1       | 5     | 2  | 1  | 'ann'  | 4
          0            | 10         | 1       | 7     | 8  | 1  | 'ann'  | 4
          """)));
      assertThat(h.output()).allSatisfy(r -> assertThat(r.timestamp()).isEqualTo(9));
      h.endInput();
      assertThat(h.output()).as("cyd's window has no bid").hasSize(2);
      assertThat(h.stateBackend().approximateEntryCount()).isZero();
      assertThat(h.timers().size()).isZero();
    }
  }

  @Test
  void recordsOfWindowsThatEndedAreLateNullKeysJoinNothingAndRecordsWithoutTimeAreMalformed() {
    try (OperatorHarness h = harnesses(TUMBLING, null).get().open()) {
      h.processWatermark(19);
      h.processElement(LEFT, bid(1, 5, 19));
      h.processElement(RIGHT, auction(1, "ann", 20));
      h.processElement(LEFT, new Record(JoinHarnesses.BID, new Object[] {null, 1L, 21L}, 21));
      h.processElement(RIGHT, new Record(JoinHarnesses.AUCTION, new Object[] {null, "x", 22L}, 22));
      h.processElement(LEFT, new Record(JoinHarnesses.BID, new Object[] {1L, 1L, null}, Record.NO_TIMESTAMP));
      h.endInput();
      assertThat(h.output()).isEmpty();
      assertThat(h.metrics().lateDropped()).isEqualTo(1);
      assertThat(h.metrics().malformed()).isEqualTo(1);
    }
  }

  @Test
  void recordsOfEitherSideExtendAndMergeOneSession() {
    JoinPlan plan = JoinPlan.window("j", List.of("auction"), List.of("id"), WindowPlan.session(5),
        null, Map.of("price", "price", "seller", "seller"));
    try (OperatorHarness h = harnesses(plan, null).get().open()) {
      h.processElement(LEFT, bid(1, 5, 0));
      h.processElement(LEFT, bid(1, 6, 9));
      h.processElement(RIGHT, auction(1, "ann", 20));
      h.processWatermark(3);
      assertThat(h.output()).isEmpty();
      h.processElement(RIGHT, auction(1, "bob", 4)); // bridges [0, 5) and [9, 14)
      h.processWatermark(25);
      assertThat(Rows.maps(h.output())).containsExactlyInAnyOrder(
          Map.of("price", 5L, "seller", "bob"), Map.of("price", 6L, "seller", "bob"));
      assertThat(h.output()).allSatisfy(r -> assertThat(r.timestamp()).isEqualTo(13));
    }
  }

  @ParameterizedTest(name = "{0} state")
  @ValueSource(strings = {"heap", "forst"})
  void inputShuffledWithinTheBoundRestoredAfterEveryStepOrRescaledGivesTheBruteForcePairs(String backend,
      @TempDir Path dir) {
    Random random = new Random(20);
    for (WindowPlan window : List.of(WindowPlan.tumbling(50), WindowPlan.sliding(60, 20), WindowPlan.session(15))) {
      JoinPlan plan = JoinPlan.window("j", List.of("auction"), List.of("id"), window, "price > 10", null);
      Supplier<OperatorHarness> harness = harnesses(plan, backend.equals("forst") ? dir.resolve(window.type().name())
          : null);
      Script script = JoinHarnesses.shuffledWithinBound(random, 30, 60);
      Script.Outcome plain = script.run(harness);
      String why = window + "; " + script.steps();
      assertThat(plain.lateDropped()).as(why).isZero();
      assertThat(counts(plain.main())).as(why).isEqualTo(counts(bruteForce(window, script)));
      assertThat(counts(script.runRestoringAfterEveryStep(harness).main())).as(why).isEqualTo(counts(plain.main()));
      int cut = random.nextInt(script.steps().size());
      assertThat(counts(script.runRescaled(harness, JoinHarnesses.keys(plan), 16, 2, 3, cut).main()))
          .as("%s, rescaled after %d steps", why, cut).isEqualTo(counts(plain.main()));
    }
  }

  /** Every (bid, auction) pair of one key in one window, price over 10, as the join should emit it. */
  private static List<Record> bruteForce(WindowPlan window, Script script) {
    JoinRows rows = new JoinRows(JoinPlan.window("j", List.of("auction"), List.of("id"), window, null, null));
    List<Record> out = new ArrayList<>();
    List<Record> bids = input(script, 0);
    List<Record> auctions = input(script, 1);
    for (long[] w : windows(window, bids, auctions)) {
      for (Record b : bids) {
        for (Record a : auctions) {
          if (b.get("auction").equals(a.get("id")) && (Long) b.get("price") > 10 && in(b, w) && in(a, w)
              && (window.type() != WindowPlan.Type.SESSION || w[2] == (Long) b.get("auction"))) {
            out.add(rows.join(b, a, w[0], w[1], w[1] - 1));
          }
        }
      }
    }
    return out;
  }

  private static boolean in(Record r, long[] w) {
    return r.timestamp() >= w[0] && r.timestamp() < w[1];
  }

  /** Aligned windows over the whole range, or per key the sessions of both sides' timestamps: {start, end, key}. */
  private static List<long[]> windows(WindowPlan window, List<Record> bids, List<Record> auctions) {
    List<long[]> out = new ArrayList<>();
    if (window.type() != WindowPlan.Type.SESSION) {
      for (long start = -window.sizeMillis() - 100; start < 10_000; start += window.slideMillis()) {
        if (Math.floorMod(start, window.slideMillis()) == 0) {
          out.add(new long[] {start, start + window.sizeMillis(), -1});
        }
      }
      return out;
    }
    for (long key = 0; key < 4; key++) {
      List<Long> times = new ArrayList<>();
      for (Record b : bids) {
        if ((Long) b.get("auction") == key) {
          times.add(b.timestamp());
        }
      }
      for (Record a : auctions) {
        if ((Long) a.get("id") == key) {
          times.add(a.timestamp());
        }
      }
      times.sort(null);
      long start = Long.MIN_VALUE;
      long end = Long.MIN_VALUE;
      for (long t : times) {
        if (t > end) { // sessions that touch merge: [t, t + gap) meets [.., end) when t <= end
          if (start != Long.MIN_VALUE) {
            out.add(new long[] {start, end, key});
          }
          start = t;
        }
        end = Math.max(end, t + window.gapMillis());
      }
      if (start != Long.MIN_VALUE) {
        out.add(new long[] {start, end, key});
      }
    }
    return out;
  }
}
