package io.tributary.worker.pool;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.plan.AggregatePlan;
import io.tributary.plan.ChainLink;
import io.tributary.plan.EdgePlan;
import io.tributary.plan.EventTimePlan;
import io.tributary.plan.ExecutionPlan;
import io.tributary.plan.SinkPlan;
import io.tributary.plan.SourcePlan;
import io.tributary.plan.StagePlan;
import io.tributary.plan.WindowAggregatePlan;
import io.tributary.plan.WindowPlan;
import io.tributary.protocol.AttemptDeployment;
import io.tributary.protocol.AttemptId;
import io.tributary.state.store.ForwardingObjectStore;
import io.tributary.state.store.InMemoryObjectStore;
import io.tributary.stream.Record;
import io.tributary.worker.state.StateBackends;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Closing an attempt stops its checkpoint uploads and waits for them: once {@link LocalAttempt#close}
 * returns, nothing of the attempt writes into the store (which its caller may close, or delete).
 */
@Timeout(60)
class AttemptCloseTest {
  @TempDir
  Path local;

  @Test
  void closeReturnsOnlyOnceNoUploadOfTheAttemptIsWriting() throws Exception {
    CountDownLatch uploading = new CountDownLatch(1);
    CountDownLatch never = new CountDownLatch(1);
    AtomicBoolean writing = new AtomicBoolean();
    // the timers of a checkpoint are written by the attempt's upload threads: this store holds them there
    ForwardingObjectStore store = new ForwardingObjectStore(new InMemoryObjectStore()) {
      @Override
      public void put(String name, byte[] bytes) throws IOException {
        if (!name.contains("/timers/")) {
          super.put(name, bytes);
          return;
        }
        writing.set(true);
        uploading.countDown();
        try {
          never.await();
        } catch (InterruptedException e) {
          throw new InterruptedIOException("upload interrupted");
        } finally {
          writing.set(false);
        }
      }
    };
    StateBackends backends = new StateBackends(store, local);
    List<Record> out = TestConnectors.newCollection();
    InProcessWorkerPool.Options options = InProcessWorkerPool.Options.of(backends.factories())
        .withConnectors(new TestConnectors().collect("test-collect", out)).withCheckpointStore(store);
    ExecutionPlan plan = plan();
    AttemptDeployment d = TestAttempts.deployment(plan, options, (stage, subtask) -> InProcessWorkerPool.WORKER);
    d = new AttemptDeployment(new AttemptId(plan.jobName(), 1), plan, new AttemptDeployment.CheckpointSettings(true),
        List.of(), d.tasks());
    LocalAttempt attempt = LocalAttempt.start(d, InProcessWorkerPool.WORKER, options, r -> {});
    try {
      attempt.trigger(1, false);
      uploading.await();
      attempt.close();
      assertThat(writing).as("an upload of the attempt still writing after close returned").isFalse();
    } finally {
      never.countDown();
      backends.close();
    }
  }

  /** datagen (throttled, never ending here) -> hash by key -> [count per key and 1 s window -> sink]. */
  private static ExecutionPlan plan() {
    return new ExecutionPlan("closing", 128, "heap", List.of(
        new StagePlan(0, "gen", 1, List.of(
            new SourcePlan("gen", "datagen", "json", new EventTimePlan("ts", 0, 0), 2_000, null,
                Map.of("count", 10_000_000L, "keys", 40, "interval", "1ms", "startTime", 0L))), List.of()),
        new StagePlan(1, "per-key -> out", 1, List.of(
            new WindowAggregatePlan("per-key", List.of("key"), WindowPlan.tumbling(1000), 0, null,
                List.of(new AggregatePlan("n", AggregatePlan.Function.COUNT, null))),
            new SinkPlan("out", "test-collect", "json", Map.of())), List.of(new ChainLink("per-key", null, "out")))),
        List.of(new EdgePlan(0, "gen", null, 1, "per-key", EdgePlan.Partitioning.HASH, List.of("key"))));
  }
}
