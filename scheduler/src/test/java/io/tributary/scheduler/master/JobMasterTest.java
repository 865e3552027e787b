package io.tributary.scheduler.master;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.checkpoint.CheckpointMetadata;
import io.tributary.checkpoint.OperatorState;
import io.tributary.checkpoint.TaskState;
import io.tributary.protocol.AttemptDeployment;
import io.tributary.protocol.AttemptId;
import io.tributary.protocol.WorkerPool;
import io.tributary.protocol.WorkerReport;
import io.tributary.protocol.WorkerReports;
import io.tributary.protocol.WorkerSlots;
import io.tributary.scheduler.checkpoint.CheckpointStore;
import io.tributary.scheduler.metadata.EmbeddedMetadataStore;
import io.tributary.state.store.InMemoryObjectStore;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** What a {@link JobMaster} restores when it restarts a failed attempt. */
class JobMasterTest {
  private static final String JOB = "orders";

  @TempDir
  Path dir;

  private EmbeddedMetadataStore metadata;

  @AfterEach
  void close() {
    if (metadata != null) {
      metadata.close();
    }
  }

  /**
   * The first attempt's committer dies while committing checkpoint 2, which is recorded already and
   * may be committed in part: the restart restores checkpoint 2 (its recovery commits the rest), not
   * checkpoint 1, whose replay would write checkpoint 2's committed output a second time.
   */
  @Timeout(60)
  @Test
  void aRestartRestoresTheCheckpointWhoseCommitFailedNotTheOneBefore() throws Exception {
    metadata = new EmbeddedMetadataStore(dir);
    CheckpointStore store = new CheckpointStore(JOB, new InMemoryObjectStore(), metadata);
    CommitFailingPool pool = new CommitFailingPool(2);
    List<Long> restored = new CopyOnWriteArrayList<>();
    JobMaster master = new JobMaster(
        new JobMaster.Settings(MasterFixtures.plan(JOB, 1), 20, 3, 10_000, RestorePolicy.NONE,
            new RestartPolicy(3, Duration.ZERO, Duration.ZERO)),
        new JobMaster.Services(pool, MasterFixtures.noSplits(), Map.of()), store, new JobMaster.Events() {
          @Override
          public void restoring(CheckpointMetadata from) {
            restored.add(from.id());
          }
        });

    CheckpointMetadata last = master.run();

    assertThat(pool.failedCommits).as("the first attempt's commit of checkpoint 2 failed").containsExactly(2L);
    assertThat(restored).as("checkpoints the restarts restored").containsExactly(2L);
    assertThat(pool.deployments).hasSize(2);
    assertThat(pool.deployments.get(1).tasks().get(0).restore()).isNotNull();
    assertThat(last.id()).as("the second attempt's final checkpoint").isGreaterThan(2);
  }



  /**
   * A pool of one worker. The first attempt acknowledges every checkpoint, and its commit of
   * checkpoint {@code failAt} fails as a committer that died would; the second attempt's task
   * finishes at once.
   */
  private static final class CommitFailingPool implements WorkerPool {
    final long failAt;
    final List<AttemptDeployment> deployments = new CopyOnWriteArrayList<>();
    final List<Long> failedCommits = new CopyOnWriteArrayList<>();
    private volatile WorkerReports reports;

    CommitFailingPool(long failAt) {
      this.failAt = failAt;
    }

    @Override
    public List<WorkerSlots> acquire(AttemptId attempt, int slots) {
      return List.of(new WorkerSlots("w", slots));
    }

    @Override
    public void deploy(AttemptDeployment deployment, WorkerReports reports) {
      this.reports = reports;
      deployments.add(deployment);
      if (deployments.size() > 1) {
        AttemptId a = deployment.attempt();
        reports.report(new WorkerReport.FinalState(a, state(Long.MAX_VALUE, true)));
        reports.report(new WorkerReport.TaskEnded(a, "0/0", "src (1/1)", WorkerReport.TaskEnded.Outcome.FINISHED,
            null));
      }
    }

    @Override
    public void triggerCheckpoint(AttemptId attempt, long checkpointId) {
      if (deployments.size() == 1) {
        reports.report(new WorkerReport.CheckpointAck(attempt, checkpointId, state(checkpointId, false)));
      }
    }

    @Override
    public void notifyCheckpointComplete(AttemptId attempt, CheckpointMetadata checkpoint) {
      if (deployments.size() == 1 && checkpoint.id() == failAt) {
        failedCommits.add(checkpoint.id());
        throw new IllegalStateException("the worker committing sink 'out' was lost");
      }
    }

    @Override
    public void cancel(AttemptId attempt) {
      reports.report(new WorkerReport.TaskEnded(attempt, "0/0", "src (1/1)", WorkerReport.TaskEnded.Outcome.CANCELLED,
          null));
    }

    @Override
    public void release(AttemptId attempt) {}

    @Override
    public void close() {}

    private static TaskState state(long checkpointId, boolean finished) {
      return new TaskState(0, 0, 1, checkpointId, finished, 0, 0, List.of(), Map.of(
          "src", new OperatorState(5, null, null, null),
          "out", new OperatorState(5, null, null, "transaction-of-" + checkpointId)));
    }
  }
}
