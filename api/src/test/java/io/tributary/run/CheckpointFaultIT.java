package io.tributary.run;

import io.tributary.boot.LocalRun;
import io.tributary.scheduler.master.RestorePolicy;
import static io.tributary.run.FaultRuns.committed;
import static io.tributary.run.FaultRuns.hidden;
import static io.tributary.run.FaultRuns.plan;
import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.checkpoint.CheckpointMetadata;
import io.tributary.protocol.Failure;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Exactly-once output through failures (contracts C9, C10): a job whose source fails in the middle
 * restarts from its latest checkpoint, and what its file sink committed equals the output of a run
 * without failures, each result once.
 */
class CheckpointFaultIT {
  @TempDir
  Path tmp;

  /** Nexmark bids per auction in 500 ms windows: 20,000 bids over 2.2 s of event time. */
  static String bidsPerAuction(Path out, String backend, int maxRecordsPerSecond) {
    return """
        name: bids-per-auction
        parallelism: 2
        sources:
          bids:
            type: nexmark
            kind: bid
            events: 20000
            %s
            eventTime: {field: dateTime, maxOutOfOrderness: 100ms}
        operators:
          - id: per-auction
            input: bids
            keyBy: [auction]
            window: {type: tumbling, size: 500ms}
            aggregate: {bids: "count(*)", top: "max(price)"}
        sinks:
          out: {input: per-auction, type: file, path: "%s"}
        state: {backend: %s}
        """.formatted(maxRecordsPerSecond > 0 ? "maxRecordsPerSecond: " + maxRecordsPerSecond : "", out, backend);
  }

  @Timeout(60)
  @ParameterizedTest(name = "{0} state")
  @ValueSource(strings = {"heap", "forst"})
  void aWindowJobWhoseSourceFailsOnceCommitsExactlyTheOutputOfARunWithoutFailures(String backend) throws Exception {
    List<String> expected = FaultRuns.reference(plan(bidsPerAuction(tmp.resolve("reference"), "heap", 0), null),
        tmp.resolve("reference"));
    Path out = tmp.resolve("out");
    FailingSources sources = new FailingSources(1);
    RunEvents events = new RunEvents((n, md) -> {
      if (n == 2) {
        sources.arm();
      }
    });

    CheckpointMetadata last;
    try (CheckpointDir checkpoints = new CheckpointDir(tmp.resolve("checkpoints"));
        LocalRun runner = checkpoints.runner(plan(bidsPerAuction(out, backend, 8000), null), 100,
            RestorePolicy.NONE, sources, events)) {
      last = runner.run();
    }

    System.out.println(events.timeline());
    assertThat(sources.failures()).as("the source failed once; %s", events.timeline()).isEqualTo(1);
    assertThat(events.restarts).hasSize(1);
    assertThat(events.restarts.get(0).retryable()).isTrue();
    assertThat(events.restarts.get(0).message()).contains("injected failure");
    assertThat(last.tasks()).as("the last checkpoint is made of final states").allMatch(t -> t.finished());
    List<String> actual = committed(out);
    assertThat(actual).as("committed output").containsExactlyElementsOf(expected);
    FaultRuns.assertOneResultPerKeyAndWindow(actual, "auction");
    assertThat(hidden(out)).as("nothing left in progress or pending").isEmpty();
  }

  /**
   * A keyed pass-through of numbered records: {@code id} becomes a per-key sequence ({@code k = id %
   * 13}, {@code seq = id / 13}) that crosses a hash exchange; the source fails twice.
   */
  @Timeout(60)
  @Test
  void everyRecordOfAPassThroughJobIsCommittedOnceThroughTwoFailures() throws Exception {
    long count = 30_000;
    Path out = tmp.resolve("out");
    String spec = """
        name: per-key-sequence
        parallelism: 2
        sources:
          numbers: {type: datagen, count: %d, maxRecordsPerSecond: 10000}
        operators:
          - {id: numbered, input: numbers, select: {k: "id %% 13", seq: "id / 13"}}
          - {id: by-key, input: numbered, keyBy: [k]}
        sinks:
          out: {input: by-key, type: file, path: "%s"}
        """.formatted(count, out);
    FailingSources sources = new FailingSources(2);
    RunEvents events = new RunEvents((n, md) -> {
      if (n == 2 || n == 5) {
        sources.arm();
      }
    });

    try (CheckpointDir checkpoints = new CheckpointDir(tmp.resolve("checkpoints"));
        LocalRun runner = checkpoints.runner(plan(spec, null), 100, RestorePolicy.NONE, sources, events)) {
      runner.run();
    }

    System.out.println(events.timeline());
    assertThat(sources.failures()).as("the source failed twice; %s", events.timeline()).isEqualTo(2);
    assertThat(events.restarts).extracting(Failure::retryable).containsExactly(true, true);
    Map<String, Integer> seen = new HashMap<>();
    for (String line : committed(out)) {
      Map<String, Object> m = FaultRuns.parse(line);
      seen.merge(m.get("k") + "/" + m.get("seq"), 1, Integer::sum);
    }
    List<String> duplicated = new ArrayList<>();
    seen.forEach((ks, n) -> {
      if (n > 1) {
        duplicated.add(ks + " x" + n);
      }
    });
    List<String> missing = new ArrayList<>();
    for (long id = 0; id < count; id++) {
      if (!seen.containsKey(id % 13 + "/" + id / 13)) {
        missing.add(id % 13 + "/" + id / 13);
      }
    }
    assertThat(duplicated).as("(k, seq) committed more than once").isEmpty();
    assertThat(missing).as("(k, seq) never committed").isEmpty();
    assertThat(seen).hasSize((int) count);
    assertThat(hidden(out)).isEmpty();
  }
}
