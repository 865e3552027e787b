package io.tributary.worker.window;

import static io.tributary.testkit.Rows.maps;
import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.plan.AggregatePlan;
import io.tributary.plan.AggregatePlan.Function;
import io.tributary.plan.WindowAggregatePlan;
import io.tributary.plan.WindowPlan;
import io.tributary.state.store.InMemoryObjectStore;
import io.tributary.testkit.OperatorHarness;
import io.tributary.testkit.Rows;
import io.tributary.testkit.Script;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Cumulate windows (a result per step for the period so far) and count(DISTINCT x), also over
 * merging sessions, through restores after every step on heap and forst state.
 */
class CumulateAndDistinctTest {
  private static final List<AggregatePlan> AGGREGATES = List.of(new AggregatePlan("bids", Function.COUNT, null),
      new AggregatePlan("bidders", Function.COUNT_DISTINCT, "bidder"));

  private static WindowAggregatePlan plan(WindowPlan window) {
    return new WindowAggregatePlan("w", List.of("auction"), window, 0, null, AGGREGATES);
  }

  private static final String BIDS = """
      auction | bidder | ts
      1       | 'a'    | 1
      1       | 'b'    | 12
      1       | 'a'    | 14
      1       | null   | 25
      2       | 'c'    | 31
      """;

  @Test
  void aCumulateWindowEmitsThePeriodSoFarAtEachStep() {
    try (OperatorHarness h = OperatorHarness.of(() -> new WindowOperator(plan(WindowPlan.cumulate(30, 10)))).open()) {
      Rows.parse(BIDS, "ts").forEach(h::processElement);
      h.processWatermark(9);
      assertThat(maps(h.output())).containsExactlyElementsOf(maps(Rows.parse("""
          auction | window_start | window_end | bids | bidders | revision
          1       | 0            | 10         | 1    | 1       | 0
          """)));
      h.endInput();
      assertThat(maps(h.output())).containsExactlyInAnyOrderElementsOf(maps(Rows.parse("""
          auction | window_start | window_end | bids | bidders | revision
          1       | 0            | 10         | 1    | 1       | 0
          1       | 0            | 20         | 3    | 2       | 0
          1       | 0            | 30         | 4    | 2       | 0
          2       | 30           | 40         | 1    | 1       | 0
          2       | 30           | 50         | 1    | 1       | 0
          2       | 30           | 60         | 1    | 1       | 0
          """)));
    }
  }

  @Test
  void distinctValuesOfMergedSessionsAreTheUnionOfTheirs() {
    try (OperatorHarness h = OperatorHarness.of(() -> new WindowOperator(plan(WindowPlan.session(5)))).open()) {
      Rows.parse("""
          auction | bidder | ts
          1       | 'a'    | 0
          1       | 'b'    | 20
          1       | 'a'    | 22
          1       | 'c'    | 10
          1       | 'b'    | 15
          """, "ts").forEach(h::processElement);
      h.endInput();
      assertThat(maps(h.output())).containsExactly(maps(Rows.parse("""
          auction | window_start | window_end | bids | bidders | revision
          1       | 0            | 5          | 1    | 1       | 0
          1       | 10           | 27         | 4    | 3       | 0
          """)).toArray(java.util.Map[]::new));
    }
  }

  @ParameterizedTest(name = "{0} state")
  @ValueSource(strings = {"heap", "forst"})
  void restoresAfterEveryStepChangeNothing(String backend, @TempDir Path dir) {
    InMemoryObjectStore store = new InMemoryObjectStore();
    AtomicInteger n = new AtomicInteger();
    for (WindowPlan window : List.of(WindowPlan.cumulate(30, 10), WindowPlan.session(5))) {
      Supplier<OperatorHarness> harness = () -> {
        OperatorHarness h = OperatorHarness.of(() -> new WindowOperator(plan(window)))
            .timerNamespaceCodec(WindowOperator.namespaceCodec()).objectStore(store);
        return backend.equals("forst") ? h.forstState(dir.resolve("h" + n.incrementAndGet())) : h;
      };
      Script script = Script.create().records(0, Rows.parse(BIDS, "ts")).watermark(13)
          .records(0, Rows.parse("auction | bidder | ts\n1 | 'd' | 15\n2 | 'c' | 33", "ts"));
      Script.Outcome plain = script.run(harness);
      assertThat(plain.main()).isNotEmpty();
      assertThat(script.runRestoringAfterEveryStep(harness).main()).as("%s", window)
          .containsExactlyInAnyOrderElementsOf(plain.main());
    }
  }
}
