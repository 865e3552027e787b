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

  private static Record row(long auction, long start, long end, long bids) {
    return new Record(RESULT, new Object[] {auction, start, end, bids, 0L}, end - 1);
  }

  private static Record ranked(Record r, long rank) {
    Map<String, Object> m = new java.util.LinkedHashMap<>(r.asMap());
    m.put("rank", rank);
    return Record.of(m, r.timestamp());
  }
}
