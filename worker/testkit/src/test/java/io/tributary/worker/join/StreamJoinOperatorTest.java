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
import io.tributary.stream.Record;
import io.tributary.stream.Schema;
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
 * The interval join and the regular join (with and without a state time-to-live): pairs emitted as
 * soon as both records are there, state dropped once the watermark shows nothing can fit it any
 * more, late records dropped; the same pairs whatever the arrival order within the bound, through
 * restores after any input and rescaling, on heap and forst state (and forst with a tiny state cache,
 * whose records of one time are added below without reading).
 */
class StreamJoinOperatorTest {
  private static final List<String> BY_AUCTION = List.of("auction");
  private static final List<String> BY_ID = List.of("id");

  @Test
  void anIntervalJoinEmitsAPairAsSoonAsItsSecondRecordArrives() {
    JoinPlan plan = JoinPlan.interval("j", BY_AUCTION, BY_ID, -5, 10, null,
        Map.of("price", "price", "seller", "seller", "ts", "ts"));
    try (OperatorHarness h = harnesses(plan, null).get().open()) {
      h.processElement(RIGHT, auction(1, "ann", 100));
      h.processElement(LEFT, bid(1, 5, 90)); // 90 + 10 >= 100: fits
      h.processElement(LEFT, bid(1, 6, 106)); // 106 - 5 > 100: does not
      h.processElement(LEFT, bid(2, 7, 100)); // another key
      h.processElement(RIGHT, auction(1, "bob", 101)); // fits 106, not 90
      assertThat(Rows.maps(h.output())).containsExactly(
          Map.of("price", 5L, "seller", "ann", "ts", 90L),
          Map.of("price", 6L, "seller", "bob", "ts", 106L));
      assertThat(h.output()).extracting(Record::timestamp).containsExactly(100L, 106L);
    }
  }

  @Test
  void stateIsDroppedOnceTheWatermarkShowsNoPartnerCanComeAndLaterRecordsAreLate() {
    JoinPlan plan = JoinPlan.interval("j", BY_AUCTION, BY_ID, -5, 10, null, null);
    try (OperatorHarness h = harnesses(plan, null).get().open()) {
      h.processElement(LEFT, bid(1, 5, 90)); // kept until the watermark reaches 100
      h.processElement(RIGHT, auction(1, "ann", 100)); // kept until 105
      assertThat(h.stateBackend().approximateEntryCount()).isEqualTo(2);
      h.processWatermark(100);
      assertThat(h.stateBackend().approximateEntryCount()).isEqualTo(1);
      h.processWatermark(105);
      assertThat(h.stateBackend().approximateEntryCount()).isZero();
      assertThat(h.timers().size()).isZero();

      h.processElement(LEFT, bid(1, 5, 105));
      assertThat(h.metrics().lateDropped()).isEqualTo(1);
      h.processElement(LEFT, bid(1, 5, 106));
      assertThat(h.metrics().lateDropped()).isEqualTo(1);
    }
  }

  @Test
  void aRegularJoinWithoutTimeToLiveJoinsEverythingAndNeedsNoTime() {
    Schema person = Schema.of("id", "name");
    Schema order = Schema.of("person", "total");
    JoinPlan plan = JoinPlan.regular("j", List.of("person"), BY_ID, 0, null, null);
    try (OperatorHarness h = harnesses(plan, null).get().open()) {
      h.processElement(LEFT, new Record(order, new Object[] {1L, 10L}, Record.NO_TIMESTAMP));
      h.processWatermark(1_000_000);
      h.processElement(RIGHT, new Record(person, new Object[] {1L, "ann"}, Record.NO_TIMESTAMP));
      h.processElement(LEFT, new Record(order, new Object[] {1L, 20L}, 5));
      assertThat(Rows.maps(h.output())).containsExactly(
          Map.of("person", 1L, "total", 10L, "id", 1L, "name", "ann"),
          Map.of("person", 1L, "total", 20L, "id", 1L, "name", "ann"));
      assertThat(h.metrics().lateDropped()).isZero();
      assertThat(h.timers().size()).isZero();
    }
  }

  @Test
  void aRegularJoinWithATimeToLiveJoinsRecordsLessThanItApartAndForgetsTheRest() {
    JoinPlan plan = JoinPlan.regular("j", BY_AUCTION, BY_ID, 10, null, Map.of("price", "price"));
    try (OperatorHarness h = harnesses(plan, null).get().open()) {
      h.processElement(LEFT, bid(1, 5, 100));
      h.processElement(RIGHT, auction(1, "ann", 109)); // 9 apart: joins
      h.processElement(RIGHT, auction(1, "bob", 110)); // 10 apart: does not
      h.processElement(LEFT, bid(1, 6, 101)); // 8 and 9 before them: joins both
      h.processElement(LEFT, bid(1, 7, 99)); // 10 before ann: none
      assertThat(Rows.maps(h.output())).containsExactly(Map.of("price", 5L), Map.of("price", 6L),
          Map.of("price", 6L));
      h.processWatermark(200);
      assertThat(h.stateBackend().approximateEntryCount()).isZero();
    }
  }

  @ParameterizedTest(name = "{0} state")
  @ValueSource(strings = {"heap", "forst", "forst with a state cache of 2 entries"})
  void inputShuffledWithinTheBoundRestoredAfterEveryStepOrRescaledGivesTheBruteForcePairs(String backend,
      @TempDir Path dir) {
    Random random = new Random(21);
    List<JoinPlan> plans = List.of(
        JoinPlan.interval("j", BY_AUCTION, BY_ID, -20, 15, null, null),
        JoinPlan.interval("j", BY_AUCTION, BY_ID, 5, 40, "price > 20", Map.of("auction", "auction", "p", "price")),
        JoinPlan.regular("j", BY_AUCTION, BY_ID, 25, null, null),
        JoinPlan.regular("j", BY_AUCTION, BY_ID, 0, null, null));
    for (int i = 0; i < plans.size(); i++) {
      JoinPlan plan = plans.get(i);
      Supplier<OperatorHarness> harness = harnesses(plan, backend.startsWith("forst") ? dir.resolve("p" + i) : null,
          backend.endsWith("2 entries") ? 2 : -1);
      Script script = JoinHarnesses.shuffledWithinBound(random, 30, 60);
      Script.Outcome plain = script.run(harness);
      String why = plan + "; " + script.steps();
      assertThat(plain.lateDropped()).as(why).isZero();
      assertThat(counts(plain.main())).as(why).isEqualTo(counts(bruteForce(plan, script)));
      assertThat(counts(script.runRestoringAfterEveryStep(harness).main())).as(why).isEqualTo(counts(plain.main()));
      int cut = random.nextInt(script.steps().size());
      assertThat(counts(script.runRescaled(harness, JoinHarnesses.keys(plan), 16, 3, 2, cut).main()))
          .as("%s, rescaled after %d steps", why, cut).isEqualTo(counts(plain.main()));
    }
  }

  private static List<Record> bruteForce(JoinPlan plan, Script script) {
    JoinRows rows = new JoinRows(plan);
    List<Record> out = new ArrayList<>();
    for (Record b : input(script, 0)) {
      for (Record a : input(script, 1)) {
        long d = a.timestamp() - b.timestamp();
        boolean fits = switch (plan.type()) {
          case INTERVAL -> d >= plan.lowerBoundMillis() && d <= plan.upperBoundMillis();
          case REGULAR -> plan.stateTtlMillis() == 0 || Math.abs(d) < plan.stateTtlMillis();
          case WINDOW -> throw new IllegalArgumentException();
        };
        if (b.get("auction").equals(a.get("id")) && fits) {
          Record joined = rows.join(b, a, 0, 0, Math.max(a.timestamp(), b.timestamp()));
          if (joined != null) {
            out.add(joined);
          }
        }
      }
    }
    return out;
  }
}
