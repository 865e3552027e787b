package io.tributary.run;

import static io.tributary.run.FaultRuns.committed;
import static io.tributary.run.FaultRuns.plan;
import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.boot.LocalRun;
import io.tributary.scheduler.master.RestorePolicy;
import io.tributary.worker.task.ConnectorFactory;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BinaryOperator;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The operators behind SQL keep their state through a savepoint restored at another parallelism:
 * a job of a window join, an interval join, a union, a window with count(DISTINCT x), a top-N, a
 * group aggregate, an unbounded top-N and an aggregate over an upsert stream, stopped with a
 * savepoint and resumed from it, commits exactly what an uninterrupted run commits (an upsert
 * stream: the same last result per key, its updates interleaving by arrival).
 */
class SqlOperatorsSavepointIT {
  private static final List<String> EXACT = List.of("joined", "hot", "quick", "both");

  @TempDir
  Path tmp;

  static String spec(Path out, String backend, boolean throttled) {
    String bids = throttled ? "maxRecordsPerSecond: 8000" : "";
    String auctions = throttled ? "maxRecordsPerSecond: 560" : "";
    return """
        name: sql-operators
        parallelism: 2
        sources:
          bids:
            type: nexmark
            kind: bid
            events: 20000
            %1$s
            eventTime: {field: dateTime, maxOutOfOrderness: 100ms}
          auctions:
            type: nexmark
            kind: auction
            events: 1400
            %2$s
            eventTime: {field: dateTime, maxOutOfOrderness: 100ms}
        operators:
          - id: joined
            join: {left: bids, right: auctions, on: [{left: auction, right: id}], window: {type: tumbling, size: 500ms}}
            select: {auction: auction, category: category, bidder: bidder, price: price}
          - id: per-category
            input: joined
            keyBy: [category]
            window: {type: tumbling, size: 500ms}
            aggregate: {bids: "count(*)", bidders: "count(DISTINCT bidder)", top: "max(price)"}
          - id: hot
            input: per-category
            topN: {partitionBy: [window_start, window_end], orderBy: [{field: bids, desc: true}, {field: category}], limit: 2, rankField: rank}
          - id: quick
            join: {left: auctions, right: bids, on: [{left: id, right: auction}], between: {lower: 0ms, upper: 200ms}}
            select: {auction: "l.id", bidder: bidder, lag: "r.dateTime - l.dateTime"}
          - id: both
            union: [quick, joined]
            select: {auction: auction, bidder: bidder}
          - id: per-bidder
            input: bids
            keyBy: [bidder]
            aggregate: {bids: "count(*)", top: "max(price)"}
          - id: top-bids
            input: bids
            topN: {partitionBy: [auction], orderBy: [{field: price, desc: true}], limit: 3, rankField: rank}
          - id: bidders
            input: per-bidder
            aggregate: {bidders: "count(*)", tops: "sum(top)", average: "avg(top)"}
        sinks:
          joined-out: {input: joined, type: file, path: "%3$s/joined"}
          hot-out: {input: hot, type: file, path: "%3$s/hot"}
          quick-out: {input: quick, type: file, path: "%3$s/quick"}
          both-out: {input: both, type: file, path: "%3$s/both"}
          per-bidder-out: {input: per-bidder, type: file, path: "%3$s/per-bidder", changelog: true}
          top-bids-out: {input: top-bids, type: file, path: "%3$s/top-bids", changelog: true}
          bidders-out: {input: bidders, type: file, path: "%3$s/bidders", changelog: true}
        state: {backend: %4$s}
        """.formatted(bids, auctions, out, backend);
  }

  @Timeout(120)
  @ParameterizedTest(name = "{2} state, parallelism {0} -> {1}")
  @CsvSource({"2, 3, heap", "3, 1, forst"})
  void aJobStoppedWithASavepointAndRestoredAtAnotherParallelismCommitsTheUninterruptedOutput(int before, int after,
      String backend) throws Exception {
    Path reference = tmp.resolve("reference");
    FaultRuns.reference(plan(spec(reference, "heap", false), null), reference.resolve("hot"));
    Path out = tmp.resolve("out");
    String spec = spec(out, backend, true);

    String savepoint = SavepointRuns.runUntilSavepoint(tmp, spec, out.resolve("hot"), before);
    assertThat(committed(out.resolve("hot")).size()).as("the job stopped before its end")
        .isLessThan(committed(reference.resolve("hot")).size());
    RunEvents events = new RunEvents();
    try (CheckpointDir checkpoints = new CheckpointDir(tmp.resolve("checkpoints"));
        LocalRun runner = checkpoints.runner(plan(spec, after), 100, RestorePolicy.parse(savepoint),
            ConnectorFactory.standard(), events)) {
      runner.run();
    }

    assertThat(events.timeline()).contains("restoring from savepoint");
    for (String sink : EXACT) {
      assertThat(committed(out.resolve(sink))).as("sink %s; %s", sink, events.timeline()).isNotEmpty()
          .containsExactlyElementsOf(committed(reference.resolve(sink)));
    }
    assertThat(lastPerKey(committed(out.resolve("per-bidder")), "bidder"))
        .isEqualTo(lastPerKey(committed(reference.resolve("per-bidder")), "bidder"));
    assertThat(bestPerRank(committed(out.resolve("top-bids")))).hasSizeGreaterThan(100)
        .isEqualTo(bestPerRank(committed(reference.resolve("top-bids"))));
    assertThat(last(GoldenRows.inCommitOrder(out.resolve("bidders"))))
        .isEqualTo(last(GoldenRows.inCommitOrder(reference.resolve("bidders"))));
  }

  /**
   * An unbounded top-N's upsert stream folded: per auction and rank, the best row it held (a rank
   * is held by ever better rows), by price and then as the top-N breaks ties, by the other fields.
   */
  private static Map<Object, Map<String, Object>> bestPerRank(List<String> changelog) {
    Comparator<Map<String, Object>> better = GoldenRows.by("price");
    for (String field : List.of("bidder", "channel", "url", "dateTime", "extra")) {
      better = better.thenComparing(GoldenRows.by(field).reversed());
    }
    Map<Object, Map<String, Object>> best = new HashMap<>();
    for (String line : changelog) {
      Map<String, Object> m = FaultRuns.parse(line);
      m.remove("_op");
      best.merge(List.of(m.get("auction"), m.get("rank")), m, BinaryOperator.maxBy(better));
    }
    return best;
  }

  /** The last record of a one-key upsert stream, its lines in commit order. */
  private static Map<String, Object> last(List<String> changelog) {
    assertThat(changelog).isNotEmpty();
    Map<String, Object> m = FaultRuns.parse(changelog.get(changelog.size() - 1));
    m.remove("_op");
    return m;
  }

  /** An upsert stream folded: per key, the record with the most bids (each update adds one). */
  private static Map<Object, Map<String, Object>> lastPerKey(List<String> changelog, String key) {
    Map<Object, Map<String, Object>> last = new HashMap<>();
    for (String line : changelog) {
      Map<String, Object> m = FaultRuns.parse(line);
      last.merge(m.get(key), m, (a, b) -> ((Number) a.get("bids")).longValue() >= ((Number) b.get("bids")).longValue()
          ? a : b);
    }
    last.values().forEach(m -> m.remove("_op"));
    return last;
  }
}
