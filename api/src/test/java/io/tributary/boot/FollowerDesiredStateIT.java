package io.tributary.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.scheduler.lifecycle.ControlPlaneServices;
import io.tributary.scheduler.lifecycle.DesiredState;
import io.tributary.scheduler.lifecycle.JobManager;
import io.tributary.scheduler.lifecycle.LeaderLease;
import io.tributary.scheduler.lifecycle.ObservedState;
import io.tributary.scheduler.lifecycle.OperationFailedException;
import io.tributary.scheduler.metadata.EmbeddedMetadataStore;
import io.tributary.scheduler.metadata.MetadataStore;
import io.tributary.state.forst.store.LocalObjectStore;
import io.tributary.state.store.ObjectStore;
import io.tributary.worker.exchange.InProcessChannel;
import io.tributary.worker.pool.ConnectorSplitEnumerator;
import io.tributary.worker.pool.InProcessWorkerPool;
import io.tributary.worker.state.StateBackends;
import io.tributary.worker.task.ConnectorFactory;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two control-plane replicas on one metadata store, in one process: while a replica does not lead,
 * an apply, a stop, a resume and a rescale sent to it are stored as the job's desired state (nothing
 * runs there), and the replica that leads carries them out through its reconcile loop.
 */
@Timeout(120)
class FollowerDesiredStateIT {
  @TempDir
  Path tmp;

  private MetadataStore shared;
  private ObjectStore objects;
  private JobManager follower;
  private JobManager leader;

  @BeforeEach
  void open() {
    shared = new EmbeddedMetadataStore(tmp.resolve("metadata"));
    objects = new LocalObjectStore(tmp.resolve("objects"));
    JobManager.Settings settings = ControlTests.settings().withReconcileInterval(Duration.ofMillis(200));
    follower = JobManager.replica(settings, services("a"), lease("a"));
    leader = JobManager.replica(settings, services("b"), lease("b"));
  }

  @AfterEach
  void close() {
    follower.close();
    leader.close();
    objects.close();
    shared.close();
  }

  @Test
  void aReplicaThatDoesNotLeadStoresDesiredStateAndTheLeaderCarriesItOut() {
    JobManager.ApplyResult created = follower.apply("default", "trickle", ControlTests.trickle("trickle",
        "{initial: 1, min: 1, max: 2}"), null);
    assertThat(created.outcome()).isEqualTo(JobManager.ApplyOutcome.CREATED);
    assertThat(created.job().observed()).as("nothing runs on a replica that does not lead")
        .isEqualTo(ObservedState.CREATED);
    assertThat(follower.get("default", "trickle").desired()).isEqualTo(DesiredState.RUNNING);
    assertThatThrownBy(() -> follower.stop("default", "trickle", true)).as("a savepoint needs the leader")
        .isInstanceOf(OperationFailedException.class).hasMessageContaining("does not lead");

    leader.contendForLead("http://b.test");
    ControlTests.await("the leader runs the job and checkpoints", Duration.ofSeconds(60), () ->
        leader.get("default", "trickle").observed() == ObservedState.RUNNING
            && leader.get("default", "trickle").lastCheckpoint() != null);
    assertThat(follower.get("default", "trickle").observed()).as("the follower reads the leader's status")
        .isEqualTo(ObservedState.RUNNING);

    assertThat(follower.stop("default", "trickle", false).desired()).isEqualTo(DesiredState.STOPPED);
    ControlTests.awaitState(leader, "default", "trickle", ObservedState.STOPPED);
    follower.resume("default", "trickle", null);
    ControlTests.await("the leader resumes it", Duration.ofSeconds(60), () ->
        leader.get("default", "trickle").observed() == ObservedState.RUNNING);
    assertThat(follower.rescale("default", "trickle", 2).parallelism()).as("stored at once").isEqualTo(2);
    ControlTests.await("the leader rescales it", Duration.ofSeconds(60), () ->
        leader.get("default", "trickle").observed() == ObservedState.RUNNING
            && leader.get("default", "trickle").tasks().stream().anyMatch(t -> t.subtask() == 1));
    assertThat(ControlTests.timeline(leader.events("default", "trickle")))
        .contains("stored as the desired state by a replica that does not lead")
        .contains("rescale to parallelism 2 requested");
  }

  private ControlPlaneServices services(String name) {
    ConnectorFactory connectors = ConnectorFactory.standard();
    StateBackends state = new StateBackends(objects, tmp.resolve("local-" + name));
    InProcessWorkerPool pool = new InProcessWorkerPool(new InProcessWorkerPool.Options(state.factories(), connectors,
        InProcessChannel.DEFAULT_CREDITS, objects), WorkersOption.IN_PROCESS.metricsInterval());
    return new ControlPlaneServices(new Shared(shared), objects, state.factories(), pool, new ConnectorSplitEnumerator(connectors), () -> {
      pool.close();
      state.close();
    });
  }

  private LeaderLease lease(String id) {
    return new LeaderLease(shared, id, Duration.ofSeconds(2), Clock.systemUTC());
  }

  /** The store both replicas share; closing one replica's services leaves it open. */
  private static final class Shared extends ForwardingMetadataStore {
    Shared(MetadataStore store) {
      super(store);
    }

    @Override
    public void close() {
      // closed by the test
    }
  }
}
