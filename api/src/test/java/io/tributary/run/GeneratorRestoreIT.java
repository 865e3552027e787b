package io.tributary.run;

import static io.tributary.run.FaultRuns.committed;
import static io.tributary.run.FaultRuns.plan;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.boot.LocalRun;
import io.tributary.scheduler.master.RestorePolicy;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * An unbounded generator without {@code startTime} starts at the wall clock's time when the job
 * first starts, and keeps that start through a restart after a failure and a restore in a new
 * process at another parallelism: the committed records are each generated once, in sequence, with
 * the event times of one uninterrupted run.
 */
class GeneratorRestoreIT {
  private static final long INTERVAL = 10;

  @TempDir
  Path tmp;

  @Timeout(90)
  @Test
  void aRestoredUnboundedGeneratorContinuesTheEventTimesOfItsFirstStart() throws Exception {
    Path out = tmp.resolve("out");
    String spec = """
        name: numbers
        sources:
          numbers: {type: datagen, interval: %dms, maxRecordsPerSecond: 2000}
        operators:
          - {id: ids, input: numbers, select: {id: id, ts: ts}}
        sinks:
          out: {input: ids, type: file, path: "%s"}
        """.formatted(INTERVAL, out);

    long before = System.currentTimeMillis();
    FailingSources sources = new FailingSources(1);
    AtomicReference<LocalRun> running = new AtomicReference<>();
    RunEvents first = new RunEvents((n, md) -> {
      if (n == 2) {
        sources.arm(); // a reader fails: the run restarts from checkpoint 2
      } else if (n == 5) {
        running.get().cancel();
      }
    });
    runUntilCancelled(plan(spec, 2), RestorePolicy.NONE, sources, first, running);
    long after = System.currentTimeMillis();
    assertThat(sources.failures()).as(first.timeline()).isEqualTo(1);
    List<String> firstRun = committed(out);

    RunEvents second = new RunEvents((n, md) -> {
      if (n == 2) {
        running.get().cancel();
      }
    });
    runUntilCancelled(plan(spec, 3), RestorePolicy.LATEST, new FailingSources(0), second, running);
    assertThat(second.timeline()).contains("restoring from checkpoint");

    List<String> all = committed(out);
    assertThat(all.size()).as("the restored run committed more").isGreaterThan(firstRun.size());
    Map<Long, Long> tsById = new TreeMap<>();
    for (String line : all) {
      Map<String, Object> r = FaultRuns.parse(line);
      Long previous = tsById.put(((Number) r.get("id")).longValue(), ((Number) r.get("ts")).longValue());
      assertThat(previous).as("record %s committed once", r.get("id")).isNull();
    }
    long start = tsById.get(0L);
    assertThat(start).as("the first event time is the wall clock's when the job first started")
        .isBetween(before, after);
    assertThat(tsById).as("every event time follows the first start")
        .allSatisfy((id, ts) -> assertThat(ts).isEqualTo(start + id * INTERVAL));
    for (int split = 0; split < 2; split++) {
      assertThat(idsOfSplit(tsById, split)).as("split %d: a gapless sequence", split)
          .isEqualTo(gapless(split, idsOfSplit(tsById, split).last()));
    }
  }

  private void runUntilCancelled(io.tributary.plan.ExecutionPlan plan, RestorePolicy restore, FailingSources sources,
      RunEvents events, AtomicReference<LocalRun> running) throws Exception {
    sources.holdEnds();
    try (CheckpointDir checkpoints = new CheckpointDir(tmp.resolve("checkpoints"));
        LocalRun runner = checkpoints.runner(plan, 100, restore, sources, events)) {
      running.set(runner);
      assertThatThrownBy(runner::run).as(events.timeline()).isInstanceOf(CancellationException.class);
    }
  }

  private static TreeSet<Long> idsOfSplit(Map<Long, Long> tsById, int split) {
    TreeSet<Long> ids = new TreeSet<>();
    tsById.keySet().stream().filter(id -> id % 2 == split).forEach(ids::add);
    return ids;
  }

  private static TreeSet<Long> gapless(int split, long last) {
    List<Long> ids = new ArrayList<>();
    for (long id = split; id <= last; id += 2) {
      ids.add(id);
    }
    return new TreeSet<>(ids);
  }
}
