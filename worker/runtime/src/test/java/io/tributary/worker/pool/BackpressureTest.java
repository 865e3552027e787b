package io.tributary.worker.pool;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.plan.ChainLink;
import io.tributary.plan.EdgePlan;
import io.tributary.plan.ExecutionPlan;
import io.tributary.plan.SinkPlan;
import io.tributary.plan.SourcePlan;
import io.tributary.plan.StagePlan;
import io.tributary.plan.TransformPlan;
import io.tributary.state.heap.HeapStateBackendFactory;
import io.tributary.stream.Record;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/** Contract C2: a slow sink slows the source; what is in flight stays bounded; nothing is dropped. */
class BackpressureTest {
  private static final long RECORDS = 60_000;
  private static final int CREDITS = 2;

  @Test
  void aSlowSinkSlowsTheSourceAndNothingIsLost() throws Exception {
    ExecutionPlan plan = new ExecutionPlan("backpressure", 128, "heap", List.of(
        new StagePlan(0, "gen", 1, List.of(new SourcePlan("gen", "datagen", "json", null, 0, null,
            Map.of("count", RECORDS, "keys", 100))), List.of()),
        new StagePlan(1, "pass -> slow", 1, List.of(
            new TransformPlan("pass", null, null), new SinkPlan("slow", "test-slow", "json", Map.of())),
            List.of(new ChainLink("pass", null, "slow")))),
        List.of(new EdgePlan(0, "gen", null, 1, "pass", EdgePlan.Partitioning.HASH, List.of("key"))));

    AtomicReference<LocalAttempt> jobRef = new AtomicReference<>();
    AtomicLong written = new AtomicLong();
    AtomicLong maxInFlight = new AtomicLong();
    BitSet seen = new BitSet();
    TestConnectors connectors = new TestConnectors().sink("test-slow", r -> {
      long n = written.incrementAndGet();
      synchronized (seen) {
        int id = ((Long) r.get("id")).intValue();
        assertThat(seen.get(id)).as("duplicate id %d", id).isFalse();
        seen.set(id);
      }
      LocalAttempt job = jobRef.get();
      if (job != null) {
        maxInFlight.accumulateAndGet(job.metrics().recordsIn() - n, Math::max);
      }
      if (n % 50 == 0) {
        LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(500)); // the sink is slow, not a sync
      }
    });

    LocalAttempt job = TestAttempts.start(plan, InProcessWorkerPool.Options.of(Map.of("heap", new HeapStateBackendFactory()))
        .withConnectors(connectors).withCredits(CREDITS));
    jobRef.set(job);
    job.await(Long.MAX_VALUE, TimeUnit.DAYS);

    assertThat(written.get()).isEqualTo(RECORDS);
    assertThat(seen.cardinality()).isEqualTo((int) RECORDS);
    // a datagen record takes ~50 bytes: ~650 per 32 KiB buffer. In flight at most: the credited
    // buffers, one waiting, one being filled, one read batch, and the 1024-record publishing lag.
    long bound = (CREDITS + 2) * 700L + 256 + 1024;
    assertThat(maxInFlight.get()).as("records read but not yet written").isLessThanOrEqualTo(bound);
    assertThat(maxInFlight.get()).as("the test must actually build up a backlog").isGreaterThan(700L);
  }
}
