package io.tributary.boot;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.scheduler.lifecycle.ControlPlaneServices;
import io.tributary.scheduler.lifecycle.JobManager;
import io.tributary.scheduler.lifecycle.LeaderLease;
import io.tributary.scheduler.lifecycle.ObservedState;
import io.tributary.scheduler.metadata.Item;
import io.tributary.scheduler.metadata.MetadataStore;
import io.tributary.scheduler.metadata.MetadataStoreException;
import io.tributary.worker.task.ConnectorFactory;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A replica elected after another process ran the jobs takes each stored job over on its first
 * reconcile pass. When the metadata store fails in the middle of a take-over, the job is not left
 * half taken over: its view keeps showing the stored status, and the next pass takes it over again,
 * from its stored status (a stopped job stays stopped, a running one resumes from its checkpoint).
 */
@Timeout(120)
class TakeOverRetryIT {
  private static final String P = "default";

  @TempDir
  Path tmp;

  @Test
  void aTakeOverThatTheMetadataStoreFailsIsDoneAgainByTheNextPass() {
    Path data = tmp.resolve("data");
    JobManager.Settings settings = ControlTests.settings().withReconcileInterval(Duration.ofMillis(100));
    try (JobManager first = JobManager.open(settings, EmbeddedServices.open(data, ConnectorFactory.standard()))) {
      first.apply(P, "parked", ControlTests.trickle("parked", "1"), null);
      first.stop(P, "parked", false);
      ControlTests.awaitState(first, P, "parked", ObservedState.STOPPED);
      first.apply(P, "trickle", ControlTests.trickle("trickle", "1"), null);
      ControlTests.await("trickle checkpoints", Duration.ofSeconds(60),
          () -> first.get(P, "trickle").lastCheckpoint() != null);
    }

    ControlPlaneServices opened = EmbeddedServices.open(data, ConnectorFactory.standard());
    FailingOnce metadata = new FailingOnce(opened.metadata());
    ControlPlaneServices services = new ControlPlaneServices(metadata, opened.checkpoints(), opened.stateBackends(),
        opened.pool(), opened.splits(), opened.workersHaveOwnState(), opened.onClose());
    try (JobManager second = JobManager.replica(settings, services,
        new LeaderLease(metadata, "second", Duration.ofSeconds(5), Clock.systemUTC()))) {
      second.contendForLead("http://second.test");
      ControlTests.await("trickle is taken over and runs again", Duration.ofSeconds(60), () ->
          ControlTests.timeline(second.events(P, "trickle")).contains("restoring from checkpoint")
              && second.get(P, "trickle").observed() == ObservedState.RUNNING);
      assertThat(metadata.failedStatusRead.get()).as("parked's status could not be read on the first pass").isTrue();
      assertThat(metadata.failedEventWrite.get()).as("trickle's take-over event could not be written on the first pass")
          .isTrue();
      // passes go in name order: parked was taken over again before trickle was
      assertThat(second.get(P, "parked").observed()).as("a stopped job stays stopped").isEqualTo(ObservedState.STOPPED);
      assertThat(ControlTests.timeline(second.events(P, "trickle"))).contains("a new control plane takes the job over")
          .contains("resuming after a control-plane restart");
    }
  }

  /**
   * The control plane's store, whose reconcile thread fails once to read parked's status and once to
   * write an event of trickle (as DynamoDB calls fail when they time out or the network drops).
   */
  private static final class FailingOnce extends ForwardingMetadataStore {
    final AtomicBoolean failedStatusRead = new AtomicBoolean();
    final AtomicBoolean failedEventWrite = new AtomicBoolean();

    FailingOnce(MetadataStore store) {
      super(store);
    }

    private static boolean onReconcileThread() {
      return Thread.currentThread().getName().equals("control-reconcile");
    }

    @Override
    public Optional<Item> get(String key) {
      if (key.endsWith("/status/parked") && onReconcileThread() && failedStatusRead.compareAndSet(false, true)) {
        throw new MetadataStoreException("injected: the store cannot be reached for " + key, true);
      }
      return super.get(key);
    }

    @Override
    public long put(String key, byte[] value, long expectedVersion) {
      if (key.contains("/events/trickle/") && onReconcileThread() && failedEventWrite.compareAndSet(false, true)) {
        throw new MetadataStoreException("injected: the store cannot be reached for " + key, true);
      }
      return super.put(key, value, expectedVersion);
    }
  }
}
