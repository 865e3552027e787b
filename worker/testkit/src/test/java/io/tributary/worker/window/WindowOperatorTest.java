package io.tributary.worker.window;

import static io.tributary.testkit.Rows.maps;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.plan.AggregatePlan;
import io.tributary.plan.AggregatePlan.Function;
import io.tributary.plan.WindowAggregatePlan;
import io.tributary.plan.WindowPlan;
import io.tributary.stream.Record;
import io.tributary.stream.Schema;
import io.tributary.testkit.OperatorHarness;
import io.tributary.testkit.Rows;
import java.util.List;
import org.junit.jupiter.api.Test;

class WindowOperatorTest {
  private static final AggregatePlan COUNT = new AggregatePlan("bids", Function.COUNT, null);

  static WindowAggregatePlan plan(List<String> keyBy, WindowPlan window, long lateness, String lateOutput,
      AggregatePlan... aggregates) {
    return new WindowAggregatePlan("w", keyBy, window, lateness, lateOutput, List.of(aggregates));
  }

  static OperatorHarness open(WindowAggregatePlan plan) {
    return OperatorHarness.of(() -> new WindowOperator(plan)).open();
  }

  private static List<Record> bids(String table) {
    return Rows.parse(table, "ts");
  }

  private static void assertOutput(OperatorHarness h, String expected) {
    assertThat(maps(h.output())).containsExactlyInAnyOrderElementsOf(maps(Rows.parse(expected)));
  }

  @Test
  void tumblingWindowsFireWhenTheWatermarkReachesTheirLastTimestamp() {
    OperatorHarness h = open(plan(List.of("auction"), WindowPlan.tumbling(10), 0, null, COUNT));
    h.processElements(bids("""
        auction | ts
        1       | 0
        1       | 9
        2       | 5
        1       | 10
        """));
    h.processWatermark(8);
    assertThat(h.output()).isEmpty();
    h.processWatermark(9);
    assertOutput(h, """
        auction | window_start | window_end | bids | revision
        1       | 0            | 10         | 2    | 0
        2       | 0            | 10         | 1    | 0
        """);
    assertThat(h.output()).allSatisfy(r -> assertThat(r.timestamp()).isEqualTo(9));
    assertThat(h.output().get(0).schema())
        .isEqualTo(Schema.of("auction", "window_start", "window_end", "bids", "revision"));
    assertThat(h.forwardedWatermarks()).containsExactly(8L, 9L);
  }

  @Test
  void tumblingWindowsAlignToTheEpochAlsoBeforeIt() {
    OperatorHarness h = open(plan(List.of(), WindowPlan.tumbling(10), 0, null, COUNT));
    h.processElements(bids("""
        ts
        -1
        -10
        -11
        """));
    h.endInput();
    assertOutput(h, """
        window_start | window_end | bids | revision
        -10          | 0          | 2    | 0
        -20          | -10        | 1    | 0
        """);
  }

  @Test
  void slidingWindowsPutARecordInEveryWindowThatCoversIt() {
    OperatorHarness h = open(plan(List.of("auction"), WindowPlan.sliding(10, 5), 0, null, COUNT));
    h.processElements(bids("""
        auction | ts
        1       | 7
        1       | 12
        """));
    h.processWatermark(9);
    assertOutput(h, """
        auction | window_start | window_end | bids | revision
        1       | 0            | 10         | 1    | 0
        """);
    h.endInput();
    assertOutput(h, """
        auction | window_start | window_end | bids | revision
        1       | 0            | 10         | 1    | 0
        1       | 5            | 15         | 2    | 0
        1       | 10           | 20         | 1    | 0
        """);
  }

  @Test
  void slidingWindowsWhoseSizeIsNoMultipleOfTheSlide() {
    OperatorHarness h = open(plan(List.of(), WindowPlan.sliding(5, 3), 0, null, COUNT));
    h.processElements(bids("""
        ts
        3
        5
        """));
    h.endInput();
    assertOutput(h, """
        window_start | window_end | bids | revision
        0            | 5          | 1    | 0
        3            | 8          | 2    | 0
        """);
  }

  @Test
  void sessionsSpanFirstToLastEventPlusGap() {
    OperatorHarness h = open(plan(List.of("user"), WindowPlan.session(10), 0, null, COUNT));
    h.processElements(bids("""
        user | ts
        'a'  | 0
        'a'  | 5
        'b'  | 5
        'a'  | 30
        """));
    h.processWatermark(14);
    assertOutput(h, """
        user | window_start | window_end | bids | revision
        a    | 0            | 15         | 2    | 0
        b    | 5            | 15         | 1    | 0
        """);
    h.endInput();
    assertThat(maps(h.output())).contains(maps(Rows.parse("""
        user | window_start | window_end | bids | revision
        a    | 30           | 40         | 1    | 0
        """)).get(0));
  }

  @Test
  void sessionsThatTouchMerge() {
    OperatorHarness h = open(plan(List.of(), WindowPlan.session(10), 0, null, COUNT));
    h.processElements(bids("""
        ts
        0
        10
        """));
    h.endInput();
    assertOutput(h, """
        window_start | window_end | bids | revision
        0            | 20         | 2    | 0
        """);
  }

  @Test
  void aRecordThatBridgesTwoSessionsMergesThemIntoOne() {
    OperatorHarness h = open(plan(List.of("user"), WindowPlan.session(10), 0, null, COUNT,
        new AggregatePlan("total", Function.SUM, "price")));
    h.processElements(bids("""
        user | price | ts
        1    | 1     | 0
        1    | 2     | 15
        """));
    assertThat(h.stateBackend().approximateEntryCount()).isEqualTo(2);
    h.processElement(bids("""
        user | price | ts
        1    | 4     | 8
        """).get(0));
    assertThat(h.stateBackend().approximateEntryCount()).isEqualTo(1);
    assertThat(h.timers().size()).isEqualTo(1);
    assertThat(h.timers().nextTimerTime()).isEqualTo(24);
    h.endInput();
    assertOutput(h, """
        user | window_start | window_end | bids | total | revision
        1    | 0            | 25         | 3    | 7     | 0
        """);
  }

  @Test
  void aSessionMergedAfterFiringIsReEmittedWithTheNextRevision() {
    OperatorHarness h = open(plan(List.of(), WindowPlan.session(10), 100, null, COUNT));
    h.processElement(bids("ts\n0").get(0));
    h.processWatermark(20);
    h.processElement(bids("ts\n3").get(0)); // [3, 13) meets the fired [0, 10); its end has passed
    assertOutput(h, """
        window_start | window_end | bids | revision
        0            | 10         | 1    | 0
        0            | 13         | 2    | 1
        """);
    h.clearOutput();
    h.processElement(bids("ts\n12").get(0)); // [12, 22) extends the fired session past the watermark
    assertThat(h.output()).isEmpty();
    h.processWatermark(21);
    assertOutput(h, """
        window_start | window_end | bids | revision
        0            | 22         | 3    | 2
        """);
    assertThat(h.metrics().refired()).isEqualTo(2);
  }

  @Test
  void aMergeTakesTheHighestRevisionOfTheSessionsItJoins() {
    OperatorHarness h = open(plan(List.of(), WindowPlan.session(10), 1000, null, COUNT));
    h.processElement(bids("ts\n0").get(0));
    h.processWatermark(9); // [0, 10) rev 0
    h.processElement(bids("ts\n1").get(0)); // [0, 11) rev 1, emitted when the watermark reaches 10
    h.processWatermark(10);
    h.processElement(bids("ts\n30").get(0)); // [30, 40), never fired
    h.clearOutput();
    h.processElement(bids("ts\n20").get(0)); // [20, 30) joins [30, 40) only
    h.processElement(bids("ts\n11").get(0)); // [11, 21) bridges [0, 11) and [20, 40)
    h.endInput();
    assertOutput(h, """
        window_start | window_end | bids | revision
        0            | 40         | 5    | 2
        """);
  }

  @Test
  void everyAggregateOverLongsStaysLong() {
    OperatorHarness h = open(plan(List.of(), WindowPlan.tumbling(10), 0, null, allAggregates()));
    h.processElements(bids("""
        price | ts
        3     | 1
        null  | 2
        -1    | 3
        10    | 4
        """));
    h.endInput();
    assertOutput(h, """
        window_start | window_end | n | priced | total | low | high | mean | revision
        0            | 10         | 4 | 3      | 12    | -1  | 10   | 4.0  | 0
        """);
  }

  @Test
  void aDoubleInputTurnsSumMinMaxIntoDoubles() {
    OperatorHarness h = open(plan(List.of(), WindowPlan.tumbling(10), 0, null, allAggregates()));
    h.processElements(bids("""
        price | ts
        3     | 1
        0.5   | 2
        -1    | 3
        """));
    h.endInput();
    assertOutput(h, """
        window_start | window_end | n | priced | total | low  | high | mean | revision
        0            | 10         | 3 | 3      | 2.5   | -1.0 | 3.0  | 0.8333333333333334 | 0
        """);
  }

  @Test
  void aggregatesOverOnlyNullsAreNullAndCountsZero() {
    OperatorHarness h = open(plan(List.of(), WindowPlan.tumbling(10), 0, null, allAggregates()));
    h.processElements(bids("""
        price | ts
        null  | 1
        """));
    h.endInput();
    assertOutput(h, """
        window_start | window_end | n | priced | total | low  | high | mean | revision
        0            | 10         | 1 | 0      | null  | null | null | null | 0
        """);
  }

  @Test
  void aLongSumThatWouldOverflowBecomesDouble() {
    OperatorHarness h = open(plan(List.of(), WindowPlan.tumbling(10), 0, null,
        new AggregatePlan("total", Function.SUM, "price")));
    h.processElements(bids("""
        price               | ts
        9223372036854775807 | 1
        1                   | 2
        """));
    h.endInput();
    assertThat(h.output().get(0).get("total")).isEqualTo(9.223372036854775807E18);
  }

  @Test
  void multiFieldKeysAreKeptApartAndNamedAsInKeyBy() {
    OperatorHarness h = open(plan(List.of("auction", "bidder"), WindowPlan.tumbling(10), 0, null, COUNT));
    h.processElements(bids("""
        auction | bidder | ts
        1       | 'x'    | 1
        1       | 'y'    | 2
        1       | 'x'    | 3
        2       | 'x'    | 4
        """));
    h.endInput();
    assertOutput(h, """
        auction | bidder | window_start | window_end | bids | revision
        1       | x      | 0            | 10         | 2    | 0
        1       | y      | 0            | 10         | 1    | 0
        2       | x      | 0            | 10         | 1    | 0
        """);
  }

  @Test
  void aLateRecordWithinLatenessReFiresWithTheNextRevision() {
    OperatorHarness h = open(plan(List.of("auction"), WindowPlan.tumbling(10), 5, null, COUNT));
    h.processElements(bids("""
        auction | ts
        1       | 1
        1       | 2
        """));
    h.processWatermark(9);
    h.processElement(bids("auction | ts\n1 | 3").get(0));
    h.processWatermark(13);
    h.processElement(bids("auction | ts\n1 | 4").get(0));
    assertOutput(h, """
        auction | window_start | window_end | bids | revision
        1       | 0            | 10         | 2    | 0
        1       | 0            | 10         | 3    | 1
        1       | 0            | 10         | 4    | 2
        """);
    assertThat(h.metrics().refired()).isEqualTo(2);

    h.processWatermark(14); // window_end - 1 + lateness: state purged, later records are late
    assertThat(h.stateBackend().approximateEntryCount()).isZero();
    h.processElement(bids("auction | ts\n1 | 5").get(0));
    assertThat(h.output()).hasSize(3);
    assertThat(h.metrics().lateDropped()).isEqualTo(1);
  }

  @Test
  void theFirstRecordOfAWindowWhoseEndPassedFiresItAtOnce() {
    OperatorHarness h = open(plan(List.of(), WindowPlan.tumbling(10), 50, null, COUNT));
    h.processWatermark(30);
    h.processElement(bids("ts\n5").get(0));
    assertOutput(h, """
        window_start | window_end | bids | revision
        0            | 10         | 1    | 0
        """);
    assertThat(h.metrics().refired()).isZero();
  }

  @Test
  void beyondLatenessRecordsGoToTheLateOutputWhenDeclared() {
    OperatorHarness h = open(plan(List.of(), WindowPlan.tumbling(10), 0, "late", COUNT));
    List<Record> input = bids("""
        auction | ts
        1       | 9
        2       | 10
        """);
    h.processWatermark(9);
    h.processElements(input);
    assertThat(h.sideOutput("late")).containsExactly(input.get(0));
    assertThat(h.metrics().lateSideOutput()).isEqualTo(1);
    assertThat(h.metrics().lateDropped()).isZero();
    h.endInput();
    assertOutput(h, """
        window_start | window_end | bids | revision
        10           | 20         | 1    | 0
        """);
  }

  @Test
  void beyondLatenessRecordsAreDroppedAndCountedWithoutALateOutput() {
    OperatorHarness h = open(plan(List.of(), WindowPlan.tumbling(10), 0, null, COUNT));
    h.processWatermark(100);
    h.processElements(bids("ts\n50\n99"));
    assertThat(h.metrics().lateDropped()).isEqualTo(2);
    assertThat(h.stateBackend().approximateEntryCount()).isZero();
    h.endInput();
    assertThat(h.output()).isEmpty();
  }

  @Test
  void aSlidingRecordIsLateOnlyWhenEveryWindowIsLate() {
    OperatorHarness h = open(plan(List.of(), WindowPlan.sliding(10, 5), 0, "late", COUNT));
    h.processWatermark(9);
    h.processElement(bids("ts\n7").get(0)); // [0,10) is late, [5,15) is not
    assertThat(h.sideOutput("late")).isEmpty();
    h.endInput();
    assertOutput(h, """
        window_start | window_end | bids | revision
        5            | 15         | 1    | 0
        """);
  }

  @Test
  void endOfInputFiresEveryWindowAndLeavesNoState() {
    OperatorHarness h = open(plan(List.of("k"), WindowPlan.tumbling(10), 1000, null, COUNT));
    h.processElements(bids("""
        k | ts
        1 | 1
        2 | 15
        3 | 1000000
        """));
    h.endInput();
    assertThat(h.output()).hasSize(3);
    assertThat(h.stateBackend().approximateEntryCount()).isZero();
    assertThat(h.timers().size()).isZero();
    assertThatThrownBy(() -> h.processElement(bids("k | ts\n1 | 1").get(0)))
        .isInstanceOf(AssertionError.class).hasMessageContaining("after end of input");
  }

  @Test
  void timersAreRegisteredOncePerWindow() {
    OperatorHarness lateness = open(plan(List.of("k"), WindowPlan.tumbling(10), 5, null, COUNT));
    OperatorHarness none = open(plan(List.of("k"), WindowPlan.tumbling(10), 0, null, COUNT));
    for (int i = 0; i < 1000; i++) {
      Record r = bids("k | ts\n1 | " + (i % 10)).get(0);
      lateness.processElement(r);
      none.processElement(r);
    }
    assertThat(lateness.timers().size()).isEqualTo(2); // fire at 9, purge at 14
    assertThat(none.timers().size()).isEqualTo(1); // both at 9
    none.endInput();
    assertThat(none.output()).hasSize(1);
  }

  @Test
  void recordsWithoutTimestampOrWithBadArgumentsAreMalformed() {
    OperatorHarness h = open(plan(List.of(), WindowPlan.tumbling(10), 0, null,
        new AggregatePlan("total", Function.SUM, "price")));
    h.processElements(bids("""
        price | ts
        1     | null
        'abc' | 1
        true  | 2
        2     | 3
        """));
    assertThat(h.metrics().malformed()).isEqualTo(3);
    h.endInput();
    assertOutput(h, """
        window_start | window_end | total | revision
        0            | 10         | 2     | 0
        """);
  }

  @Test
  void aggregateArgumentsMayBeSqlExpressions() {
    OperatorHarness h = open(plan(List.of(), WindowPlan.tumbling(10), 0, null,
        new AggregatePlan("total", Function.SUM, "price * 2"),
        new AggregatePlan("ratio", Function.MAX, "price / qty")));
    h.processElements(bids("""
        price | qty | ts
        3     | 1   | 1
        4     | 0   | 2
        5     | 5   | 3
        """));
    assertThat(h.metrics().malformed()).as("division by zero").isEqualTo(1);
    h.endInput();
    assertOutput(h, """
        window_start | window_end | total | ratio | revision
        0            | 10         | 16    | 3     | 0
        """);
  }

  @Test
  void keysOfAnotherSubtaskAreRefused() {
    WindowAggregatePlan plan = plan(List.of("k"), WindowPlan.tumbling(10), 0, null, COUNT);
    OperatorHarness h = OperatorHarness.of(() -> new WindowOperator(plan)).subtask(0, 128, 128).open();
    assertThatThrownBy(() -> {
      for (long k = 0; k < 1000; k++) {
        h.processElement(new Record(Schema.of("k"), new Object[] {k}, 1));
      }
    }).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("outside this backend's range");
  }

  private static AggregatePlan[] allAggregates() {
    return new AggregatePlan[] {
      new AggregatePlan("n", Function.COUNT, null),
      new AggregatePlan("priced", Function.COUNT, "price"),
      new AggregatePlan("total", Function.SUM, "price"),
      new AggregatePlan("low", Function.MIN, "price"),
      new AggregatePlan("high", Function.MAX, "price"),
      new AggregatePlan("mean", Function.AVG, "price"),
    };
  }
}
