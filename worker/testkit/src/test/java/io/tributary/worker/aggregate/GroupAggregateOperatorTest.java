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

  private static final GroupAggregatePlan OVER_UPDATES = new GroupAggregatePlan("g", List.of("category"), List.of(
      new AggregatePlan("avg", Function.AVG, "final"), new AggregatePlan("n", Function.COUNT, null),
      new AggregatePlan("total", Function.SUM, "final")), List.of("id", "category"));
  private static final Schema CHANGE = Schema.of("_op", "id", "category", "final");

  private static Record change(String op, long id, long category, Long fin, long ts) {
    return new Record(CHANGE, new Object[] {op, id, category, fin}, ts);
  }

  @Test
  void overAnUpsertStreamEachKeysLastRecordIsRetractedBeforeItsNextAndAGroupLeftEmptyIsDeleted() {
    try (OperatorHarness h = OperatorHarness.of(() -> new GroupAggregateOperator(OVER_UPDATES)).open()) {
      h.processElement(change("insert", 1, 10, 100L, 1));
      h.processElement(change("insert", 2, 10, 200L, 2));
      h.processElement(change("update", 1, 10, 300L, 3));
      h.processElement(change("update", 1, 10, 300L, 4)); // the same again: no change
      h.processElement(change("delete", 2, 10, null, 5));
      h.processElement(change("delete", 3, 10, null, 6)); // never seen: nothing
      h.processElement(change("delete", 1, 10, null, 7));
      h.processElement(change("insert", 4, 10, 7L, 8));

      assertThat(Rows.maps(h.output())).containsExactlyElementsOf(Rows.maps(Rows.parse("""
          _op      | category | avg   | n | total
          'insert' | 10       | 100.0 | 1 | 100
          'update' | 10       | 150.0 | 2 | 300
          'update' | 10       | 250.0 | 2 | 500
          'update' | 10       | 300.0 | 1 | 300
          'delete' | 10       | 300.0 | 1 | 300
          'insert' | 10       | 7.0   | 1 | 7
          """)));
      assertThat(h.output()).extracting(Record::timestamp).containsExactly(1L, 2L, 3L, 5L, 7L, 8L);
    }
  }

  @ParameterizedTest(name = "{0} state")
  @ValueSource(strings = {"heap", "forst"})
  void overAnUpsertStreamRestoresAndRescalingChangeNothingAndTheLastResultsAreOverTheLatestRecords(String backend,
      @TempDir Path dir) {
    Random random = new Random(27);
    Script script = Script.create();
    Map<Long, Long> latest = new HashMap<>(); // id -> final
    for (int i = 0; i < 120; i++) {
      long id = random.nextInt(12);
      boolean delete = latest.containsKey(id) && random.nextInt(5) == 0;
      long fin = random.nextInt(1000);
      String op = delete ? "delete" : latest.containsKey(id) ? "update" : "insert";
      script.record(change(op, id, id % 4, delete ? null : fin, i));
      if (delete) {
        latest.remove(id);
      } else {
        latest.put(id, fin);
      }
      if (i % 10 == 9) {
        script.watermark(i);
      }
    }
    InMemoryObjectStore store = new InMemoryObjectStore();
    AtomicInteger n = new AtomicInteger();
    Supplier<OperatorHarness> harness = () -> {
      OperatorHarness h = OperatorHarness.of(() -> new GroupAggregateOperator(OVER_UPDATES))
          .timerNamespaceCodec(LongCodec.INSTANCE).objectStore(store);
      return backend.equals("forst") ? h.forstState(dir.resolve("h" + n.incrementAndGet())) : h;
    };

    Script.Outcome plain = script.run(harness);
    assertThat(script.runRestoringAfterEveryStep(harness).main()).containsExactlyElementsOf(plain.main());
    Script.Outcome rescaled = script.runRescaled(harness, List.of(new KeySelector(List.of("category"))), 16, 2, 3, 61);
    assertThat(rescaled.main()).containsExactlyInAnyOrderElementsOf(plain.main());
    Map<Object, Map<String, Object>> last = new HashMap<>();
    for (Record r : plain.main()) {
      if ("delete".equals(r.get("_op"))) {
        last.remove(r.get("category"));
      } else {
        last.put(r.get("category"), r.asMap());
      }
    }
    Map<Long, long[]> expected = new HashMap<>(); // category -> count, sum
    latest.forEach((id, fin) -> {
      long[] t = expected.computeIfAbsent(id % 4, c -> new long[2]);
      t[0]++;
      t[1] += fin;
    });
    assertThat(last.keySet()).isEqualTo(expected.keySet());
    expected.forEach((category, t) -> assertThat(last.get(category)).containsEntry("n", t[0])
        .containsEntry("total", t[1]).containsEntry("avg", (double) t[1] / t[0]));
  }
}
