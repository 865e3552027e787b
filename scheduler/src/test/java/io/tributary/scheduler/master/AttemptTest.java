package io.tributary.scheduler.master;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.checkpoint.CheckpointMetadata;
import io.tributary.checkpoint.TaskState;
import io.tributary.protocol.AttemptDeployment;
import io.tributary.protocol.AttemptId;
import io.tributary.protocol.Failure;
import io.tributary.protocol.TaskMetrics;
import io.tributary.protocol.WorkerPool;
import io.tributary.protocol.WorkerReport;
import io.tributary.protocol.WorkerReports;
import io.tributary.protocol.WorkerSlots;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** An attempt follows only its own workers' reports, and ends when its tasks have. */
class AttemptTest {
  private static final AttemptId CURRENT = new AttemptId("job", 5);
  private static final AttemptId OLDER = new AttemptId("job", 4);

  /** A pool that records what the attempt asks of it. */
  private static final class RecordingPool implements WorkerPool {
    final List<String> calls = new CopyOnWriteArrayList<>();

    @Override
    public List<WorkerSlots> acquire(AttemptId attempt, int slots) {
      return List.of(new WorkerSlots("w", slots));
    }

    @Override
    public void deploy(AttemptDeployment deployment, WorkerReports reports) {}

    @Override
    public void triggerCheckpoint(AttemptId attempt, long checkpointId) {
      calls.add("trigger " + attempt + " " + checkpointId);
    }

    @Override
    public void notifyCheckpointComplete(AttemptId attempt, CheckpointMetadata checkpoint) {}

    @Override
    public void cancel(AttemptId attempt) {
      calls.add("cancel " + attempt);
    }

    @Override
    public void release(AttemptId attempt) {}

    @Override
    public void close() {}
  }

  private final RecordingPool pool = new RecordingPool();
  private final List<WorkerReport> observed = new CopyOnWriteArrayList<>();
  private final Attempt attempt = new Attempt(CURRENT, 2, pool, new JobMaster.Events() {
    @Override
    public void observed(WorkerReport report) {
      observed.add(report);
    }
  });

  private static WorkerReport.TaskEnded ended(AttemptId a, String task, WorkerReport.TaskEnded.Outcome o, Failure f) {
    return new WorkerReport.TaskEnded(a, task, "task " + task, o, f);
  }

  @Test
  void reportsOfAnOlderAttemptChangeNothing() throws Exception {
    attempt.report(ended(OLDER, "0/0", WorkerReport.TaskEnded.Outcome.FAILED, Failure.user("stale")));
    attempt.report(ended(OLDER, "1/0", WorkerReport.TaskEnded.Outcome.FINISHED, null));
    attempt.report(new WorkerReport.Metrics(OLDER, "w", List.of()));
    assertThat(observed).isEmpty();

    attempt.report(ended(CURRENT, "0/0", WorkerReport.TaskEnded.Outcome.FINISHED, null));
    attempt.report(ended(CURRENT, "1/0", WorkerReport.TaskEnded.Outcome.FINISHED, null));
    assertThat(attempt.awaitEnd(0)).as("both of its own tasks finished, the stale failure did not count").isNull();
    assertThat(pool.calls).isEmpty();
  }

  @Test
  void theFirstFailureEndsTheAttemptAndCancelsTheOtherTasks() throws Exception {
    Failure boom = new Failure(Failure.Domain.EXTERNAL, true, "task 1/0 failed: connection reset");
    attempt.report(ended(CURRENT, "1/0", WorkerReport.TaskEnded.Outcome.FAILED, boom));
    attempt.report(ended(CURRENT, "0/0", WorkerReport.TaskEnded.Outcome.CANCELLED, null));

    assertThat(attempt.awaitEnd(1000)).isEqualTo(boom);
    assertThat(pool.calls).containsExactly("cancel " + CURRENT);
  }

  @Test
  void aTaskCancelledWithoutAFailureIsARetryableOne() throws Exception {
    attempt.report(ended(CURRENT, "1/0", WorkerReport.TaskEnded.Outcome.CANCELLED, null));
    attempt.report(ended(CURRENT, "0/0", WorkerReport.TaskEnded.Outcome.FINISHED, null));

    Failure f = attempt.awaitEnd(0);
    assertThat(f.retryable()).isTrue();
    assertThat(f.message()).isEqualTo("task task 1/0 was cancelled");
  }

  @Test
  void metricsAndOutputOfTheAttemptGoToTheEventsAndTriggersToItsWorkers() {
    TaskMetrics t = new TaskMetrics(1, "0/0", "src (1/1)", 0, 0, true, 1, 0, 0, false, false, 1, 0, 0, List.of());
    attempt.report(new WorkerReport.Metrics(CURRENT, "w", List.of(t)));
    attempt.report(new WorkerReport.FinalState(CURRENT, new TaskState(0, 0, 1, -1, true, 0, 0, List.of(), Map.of())));
    attempt.trigger(9);

    assertThat(observed).singleElement().isInstanceOf(WorkerReport.Metrics.class);
    assertThat(pool.calls).containsExactly("trigger " + CURRENT + " 9");
  }
}
