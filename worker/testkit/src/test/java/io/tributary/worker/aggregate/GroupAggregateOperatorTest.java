package io.tributary.worker.aggregate;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.plan.AggregatePlan;
import io.tributary.plan.AggregatePlan.Function;
import io.tributary.plan.GroupAggregatePlan;
import io.tributary.state.store.InMemoryObjectStore;
import io.tributary.stream.KeySelector;
import io.tributary.stream.Record;
import io.tributary.stream.Schema;
import io.tributary.testkit.OperatorHarness;
import io.tributary.testkit.Rows;
import io.tributary.testkit.Script;
import io.tributary.worker.state.LongCodec;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The unbounded group aggregate: an upsert stream of each group's changed results (insert, then
 * updates), nothing for a record that changes no result; through restores after every record and
 * rescaling it emits the same, and the last result per group equals the aggregate over all input,
 * on heap and forst state.
 */
class GroupAggregateOperatorTest {
  private static final GroupAggregatePlan PLAN = new GroupAggregatePlan("g", List.of("auction"), List.of(
      new AggregatePlan("bids", Function.COUNT, null),
      new AggregatePlan("top", Function.MAX, "price"),
      new AggregatePlan("total", Function.SUM, "price")));
  private static final Schema BID = Schema.of("auction", "price");

  @Test
  void eachRecordThatChangesItsGroupsResultsEmitsAnInsertThenUpdates() {
    GroupAggregatePlan topOnly = new GroupAggregatePlan("g", List.of("auction"),
        List.of(new AggregatePlan("top", Function.MAX, "price")));
    try (OperatorHarness h = OperatorHarness.of(() -> new GroupAggregateOperator(topOnly)).open()) {
      Rows.parse("""
          auction | price | ts
          1       | 5     | 10
          2       | 3     | 11
          1       | 4     | 12
          1       | 9     | 13
          1       | 'x'   | 14
          """, "ts").forEach(h::processElement);

      assertThat(Rows.maps(h.output())).containsExactlyElementsOf(Rows.maps(Rows.parse("""
          _op      | auction | top
          'insert' | 1       | 5
          'insert' | 2       | 3
          'update' | 1       | 9
          """)));
      assertThat(h.output()).extracting(Record::timestamp).containsExactly(10L, 11L, 13L);
      assertThat(h.metrics().malformed()).as("'x' is not a number").isEqualTo(1);
    }
  }

  @Test
  void withoutKeysItIsOneGlobalGroup() {
    GroupAggregatePlan global = new GroupAggregatePlan("g", List.of(), List.of(new AggregatePlan("n", Function.COUNT,
        null)));
    try (OperatorHarness h = OperatorHarness.of(() -> new GroupAggregateOperator(global)).open()) {
      Rows.parse("auction\n1\n2\n3").forEach(h::processElement);
      assertThat(Rows.maps(h.output())).containsExactly(Map.of("_op", "insert", "n", 1L),
          Map.of("_op", "update", "n", 2L), Map.of("_op", "update", "n", 3L));
    }
  }

  @ParameterizedTest(name = "{0} state")
  @ValueSource(strings = {"heap", "forst"})
  void restoresAfterEveryRecordAndRescalingChangeNothingAndTheLastResultsAreTheTotals(String backend,
      @TempDir Path dir) {
    Random random = new Random(22);
    Script script = Script.create();
    Map<Long, long[]> totals = new HashMap<>(); // auction -> count, max, sum
    for (int i = 0; i < 80; i++) {
      long auction = random.nextInt(6);
      long price = random.nextInt(100);
      script.record(new Record(BID, new Object[] {auction, price}, i));
      long[] t = totals.computeIfAbsent(auction, a -> new long[] {0, Long.MIN_VALUE, 0});
      t[0]++;
      t[1] = Math.max(t[1], price);
      t[2] += price;
      if (i % 10 == 9) {
        script.watermark(i);
      }
    }
    InMemoryObjectStore store = new InMemoryObjectStore();
    AtomicInteger n = new AtomicInteger();
    Supplier<OperatorHarness> harness = () -> {
      OperatorHarness h = OperatorHarness.of(() -> new GroupAggregateOperator(PLAN))
          .timerNamespaceCodec(LongCodec.INSTANCE).objectStore(store);
      return backend.equals("forst") ? h.forstState(dir.resolve("h" + n.incrementAndGet())) : h;
    };

    Script.Outcome plain = script.run(harness);
    assertThat(script.runRestoringAfterEveryStep(harness).main()).containsExactlyElementsOf(plain.main());
    Script.Outcome rescaled = script.runRescaled(harness, List.of(new KeySelector(List.of("auction"))), 16, 2, 3, 41);
    assertThat(rescaled.main()).containsExactlyInAnyOrderElementsOf(plain.main());
    Map<Object, Map<String, Object>> last = new HashMap<>();
    for (Record r : plain.main()) {
      last.put(r.get("auction"), r.asMap());
    }
    assertThat(last).hasSize(totals.size());
    totals.forEach((auction, t) -> assertThat(last.get(auction)).containsEntry("bids", t[0])
        .containsEntry("top", t[1]).containsEntry("total", t[2]));
  }
}
