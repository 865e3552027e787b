package io.tributary.worker.topn;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.plan.TopNPlan;
import io.tributary.plan.TopNPlan.SortKey;
import io.tributary.state.store.InMemoryObjectStore;
import io.tributary.stream.KeySelector;
import io.tributary.stream.Record;
import io.tributary.stream.Schema;
import io.tributary.testkit.OperatorHarness;
import io.tributary.testkit.Rows;
import io.tributary.testkit.Script;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
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
 * The top N of each window's partitions: emitted best first with their rank when the window ends,
 * late rows dropped, ties and arrival order never changing which rows win; restores after every row
 * and rescaling change nothing, on heap and forst state.
 */
class TopNOperatorTest {
  private static final List<String> PER_WINDOW = List.of("window_start", "window_end");
  private static final Schema RESULT = Schema.of("auction", "window_start", "window_end", "bids", "revision");

  private static Supplier<OperatorHarness> harnesses(TopNPlan plan, Path forstDir) {
    InMemoryObjectStore store = new InMemoryObjectStore();
    AtomicInteger n = new AtomicInteger();
    return () -> {
      OperatorHarness h = OperatorHarness.of(() -> new TopNOperator(plan))
          .timerNamespaceCodec(TopNOperator.namespaceCodec()).objectStore(store);
      return forstDir == null ? h : h.forstState(forstDir.resolve("h" + n.incrementAndGet()));
    };
  }

  @Test
  void theBestRowsOfEachWindowAreEmittedRankedWhenItEnds() {
    TopNPlan plan = new TopNPlan("top", PER_WINDOW, List.of(new SortKey("bids", true, false)), 2, "rank");
    try (OperatorHarness h = harnesses(plan, null).get().open()) {
      Rows.parse("""
          auction | window_start | window_end | bids | revision
          1       | 0            | 10         | 5    | 0
          2       | 0            | 10         | 9    | 0
          3       | 0            | 10         | 7    | 0
          4       | 10           | 20         | 1    | 0
          """).stream().map(r -> r.withTimestamp((Long) r.get("window_end") - 1)).forEach(h::processElement);
      h.processWatermark(8);
      assertThat(h.output()).isEmpty();
      h.processWatermark(9);
      assertThat(Rows.maps(h.output())).containsExactlyElementsOf(Rows.maps(Rows.parse("""
          auction | window_start | window_end | bids | revision | rank
          2       | 0            | 10         | 9    | 0        | 1
          3       | 0            | 10         | 7    | 0        | 2
          """)));
      assertThat(h.output()).allSatisfy(r -> assertThat(r.timestamp()).isEqualTo(9));

      h.processElement(row(5, 0, 10, 99)); // its window was ranked already
      h.processElement(new Record(Schema.of("auction"), new Object[] {1L}, 3));
      h.endInput();
      assertThat(h.output()).hasSize(3);
      assertThat(h.metrics().lateDropped()).isEqualTo(1);
      assertThat(h.metrics().malformed()).as("no window_end").isEqualTo(1);
      assertThat(h.stateBackend().approximateEntryCount()).isZero();
    }
  }

  @Test
  void deduplicationKeepsTheFirstRowOfEachKeyAndWindowAndNullsSortAsAsked() {
    TopNPlan first = new TopNPlan("dedup", List.of("window_end", "auction"), List.of(new SortKey("ts", false, false)),
        1, null);
    TopNPlan nullsFirst = new TopNPlan("n", List.of("window_end"), List.of(new SortKey("price", true, true)), 1, null);
    Schema bid = Schema.of("auction", "price", "ts", "window_end");
    List<Record> bids = List.of(new Record(bid, new Object[] {1L, 5L, 3L, 10L}, 3),
        new Record(bid, new Object[] {1L, null, 2L, 10L}, 2), new Record(bid, new Object[] {2L, 7L, 4L, 10L}, 4));
    try (OperatorHarness h = harnesses(first, null).get().open();
        OperatorHarness n = harnesses(nullsFirst, null).get().open()) {
      bids.forEach(h::processElement);
      bids.forEach(n::processElement);
      h.endInput();
      n.endInput();
      assertThat(h.output()).extracting(r -> r.get("ts")).containsExactlyInAnyOrder(2L, 4L);
      assertThat(n.output()).extracting(r -> r.get("price")).containsExactly((Object) null);
    }
  }

  @Test
  void rowsEqualInEveryKeyRankTheSameWhateverTheirArrivalOrder() {
    TopNPlan plan = new TopNPlan("top", PER_WINDOW, List.of(new SortKey("bids", true, false)), 2, "rank");
    List<Record> rows = new ArrayList<>();
    for (long auction = 0; auction < 6; auction++) {
      rows.add(row(auction, 0, 10, auction % 2 == 0 ? 4 : 3));
    }
    List<Map<String, Object>> firstOrder = null;
    Random random = new Random(23);
    for (int round = 0; round < 10; round++) {
      Collections.shuffle(rows, random);
      try (OperatorHarness h = harnesses(plan, null).get().open()) {
        rows.forEach(h::processElement);
        h.endInput();
        List<Map<String, Object>> out = Rows.maps(h.output());
        assertThat(out).extracting(m -> m.get("auction")).containsExactly(0L, 2L);
        firstOrder = firstOrder == null ? out : firstOrder;
        assertThat(out).isEqualTo(firstOrder);
      }
    }
  }

  @ParameterizedTest(name = "{0} state")
  @ValueSource(strings = {"heap", "forst"})
  void restoresAfterEveryRowAndRescalingGiveThePlainOutputWhichIsTheBruteForceTopN(String backend,
      @TempDir Path dir) {
    TopNPlan plan = new TopNPlan("top", PER_WINDOW, List.of(new SortKey("bids", true, false),
        new SortKey("auction", false, false)), 3, "rank");
    Random random = new Random(24);
    Script script = Script.create();
    List<Record> all = new ArrayList<>();
    for (long window = 0; window < 5; window++) {
      for (long auction = 0; auction < 8; auction++) {
        Record r = row(auction, window * 10, window * 10 + 10, random.nextInt(6));
        script.record(r);
        all.add(r);
      }
      script.watermark(window * 10 + 4);
    }
    Supplier<OperatorHarness> harness = harnesses(plan, backend.equals("forst") ? dir : null);
    Script.Outcome plain = script.run(harness);

    List<Record> expected = new ArrayList<>();
    for (long window = 0; window < 5; window++) {
      long start = window * 10;
      List<Record> ofWindow = new ArrayList<>(all.stream().filter(r -> r.get("window_start").equals(start)).toList());
      ofWindow.sort(Comparator.comparing((Record r) -> -(Long) r.get("bids")).thenComparing(r -> (Long) r.get("auction")));
      for (int i = 0; i < 3; i++) {
        expected.add(ranked(ofWindow.get(i), i + 1));
      }
    }
    assertThat(Rows.maps(plain.main())).containsExactlyInAnyOrderElementsOf(Rows.maps(expected));
    assertThat(script.runRestoringAfterEveryStep(harness).main()).containsExactlyInAnyOrderElementsOf(plain.main());
    assertThat(script.runRescaled(harness, List.of(new KeySelector(PER_WINDOW)), 16, 3, 2, 17).main())
        .containsExactlyInAnyOrderElementsOf(plain.main());
  }

  @Test
  void unboundedItEmitsEachRankARowChangesAsAnUpsertStream() {
    TopNPlan plan = new TopNPlan("top", List.of("auction"), List.of(new SortKey("price", true, false)), 2, "rank");
    Schema bid = Schema.of("auction", "price");
    try (OperatorHarness h = harnesses(plan, null).get().open()) {
      h.processElement(new Record(bid, new Object[] {1L, 5L}, 1));
      h.processElement(new Record(bid, new Object[] {1L, 3L}, 2));
      h.processElement(new Record(bid, new Object[] {1L, 9L}, 3)); // moves 5 to rank 2, 3 out
      h.processElement(new Record(bid, new Object[] {1L, 1L}, 4)); // not in the top 2: nothing
      h.processElement(new Record(bid, new Object[] {2L, 4L}, 5));
      assertThat(Rows.maps(h.output())).containsExactlyElementsOf(Rows.maps(Rows.parse("""
          _op    | auction | price | rank
          insert | 1       | 5     | 1
          insert | 1       | 3     | 2
          update | 1       | 9     | 1
          update | 1       | 5     | 2
          insert | 2       | 4     | 1
          """)));
      assertThat(h.output()).extracting(Record::timestamp).containsExactly(1L, 2L, 3L, 1L, 5L);
      h.processWatermark(Long.MAX_VALUE - 1);
      h.endInput();
      assertThat(h.output()).as("nothing waits for time").hasSize(5);
    }
  }

  @Test
  void unboundedDeduplicationKeepsTheLatestRowPerKeyWhateverTheArrivalOrder() {
    TopNPlan last = new TopNPlan("dedup", List.of("bidder", "auction"), List.of(new SortKey("ts", true, false)), 1,
        null);
    Schema bid = Schema.of("bidder", "auction", "price", "ts");
    List<Record> bids = new ArrayList<>();
    Random random = new Random(25);
    for (long i = 0; i < 40; i++) {
      bids.add(new Record(bid, new Object[] {i % 3, i % 2, (long) random.nextInt(100), i}, i));
    }
    Map<Object, Map<String, Object>> first = null;
    for (int round = 0; round < 5; round++) {
      Collections.shuffle(bids, random);
      try (OperatorHarness h = harnesses(last, null).get().open()) {
        bids.forEach(h::processElement);
        assertThat(h.output()).allSatisfy(r -> assertThat(r.schema().names())
            .containsExactly("_op", "bidder", "auction", "price", "ts"));
        Map<Object, Map<String, Object>> latest = new java.util.HashMap<>();
        for (Record r : h.output()) {
          Map<String, Object> m = new java.util.LinkedHashMap<>(r.asMap());
          m.remove("_op"); // insert or update depends on the arrival order; the last row does not
          latest.put(List.of(r.get("bidder"), r.get("auction")), m);
        }
        assertThat(latest).hasSize(6);
        latest.forEach((k, r) -> assertThat((Long) r.get("ts")).isGreaterThanOrEqualTo(34));
        first = first == null ? latest : first;
        assertThat(latest).isEqualTo(first);
      }
    }
  }

  @ParameterizedTest(name = "{0} state")
  @ValueSource(strings = {"heap", "forst"})
  void unboundedRestoresAfterEveryRowAndRescalingChangeNothingAndTheLastRanksAreTheBruteForceTopN(String backend,
      @TempDir Path dir) {
    TopNPlan plan = new TopNPlan("top", List.of("auction"), List.of(new SortKey("price", true, false)), 3, "rank");
    Schema bid = Schema.of("auction", "price", "bidder");
    Random random = new Random(26);
    Script script = Script.create();
    List<Record> all = new ArrayList<>();
    for (int i = 0; i < 90; i++) {
      Record r = new Record(bid, new Object[] {(long) random.nextInt(5), (long) random.nextInt(50), (long) i}, i);
      script.record(r);
      all.add(r);
      if (i % 10 == 9) {
        script.watermark(i);
      }
    }
    Supplier<OperatorHarness> harness = harnesses(plan, backend.equals("forst") ? dir : null);
    Script.Outcome plain = script.run(harness);
    assertThat(script.runRestoringAfterEveryStep(harness).main()).containsExactlyElementsOf(plain.main());
    assertThat(script.runRescaled(harness, List.of(new KeySelector(List.of("auction"))), 16, 2, 3, 41).main())
        .containsExactlyInAnyOrderElementsOf(plain.main());

    Map<List<Object>, Map<String, Object>> last = new java.util.HashMap<>();
    for (Record r : plain.main()) {
      last.put(List.of(r.get("auction"), r.get("rank")), r.asMap());
    }
    Map<List<Object>, Map<String, Object>> expected = new java.util.HashMap<>();
    for (long auction = 0; auction < 5; auction++) {
      long a = auction;
      List<Record> of = new ArrayList<>(all.stream().filter(r -> r.get("auction").equals(a)).toList());
      of.sort(Comparator.comparing((Record r) -> -(Long) r.get("price")).thenComparing(r -> (Long) r.get("bidder")));
      for (int i = 0; i < Math.min(3, of.size()); i++) {
        expected.put(List.of(a, (long) i + 1), Map.of("price", of.get(i).get("price")));
      }
    }
    assertThat(last.keySet()).isEqualTo(expected.keySet());
    expected.forEach((k, v) -> assertThat(last.get(k).get("price")).as("%s", k).isEqualTo(v.get("price")));
  }

  private static Record row(long auction, long start, long end, long bids) {
    return new Record(RESULT, new Object[] {auction, start, end, bids, 0L}, end - 1);
  }

  private static Record ranked(Record r, long rank) {
    Map<String, Object> m = new java.util.LinkedHashMap<>(r.asMap());
    m.put("rank", rank);
    return Record.of(m, r.timestamp());
  }
}
