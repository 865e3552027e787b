package io.tributary.boot;

import static io.tributary.boot.ControlTests.awaitState;
import static io.tributary.boot.ControlTests.timeline;
import static io.tributary.boot.ControlTests.trickle;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.scheduler.lifecycle.ControlPlaneServices;
import io.tributary.scheduler.lifecycle.DesiredState;
import io.tributary.scheduler.lifecycle.JobManager;
import io.tributary.scheduler.lifecycle.JobRecord;
import io.tributary.scheduler.lifecycle.JobStore;
import io.tributary.scheduler.lifecycle.NotFoundException;
import io.tributary.scheduler.lifecycle.ObservedState;
import io.tributary.scheduler.lifecycle.SpecFingerprint;
import io.tributary.scheduler.master.RestorePolicy;
import io.tributary.scheduler.spec.JobSpecs;
import io.tributary.worker.task.ConnectorFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The reconcile loop drives jobs towards their records when the records change without the API:
 * written to the metadata store directly, as another control-plane replica or an operator would.
 */
@Timeout(90)
class ReconcileIT {
  private static final String P = "default";

  @TempDir
  Path tmp;

  private JobManager jobs;
  private JobStore records;

  @BeforeEach
  void open() {
    ControlPlaneServices services = EmbeddedServices.open(tmp.resolve("data"), ConnectorFactory.standard());
    records = new JobStore(services.metadata());
    jobs = JobManager.open(ControlTests.settings().withReconcileInterval(Duration.ofMillis(100)), services);
  }

  @AfterEach
  void close() {
    jobs.close();
  }

  @Test
  void aDesiredStateWrittenToTheStoreIsCarriedOut() {
    jobs.apply(P, "trickle", trickle("trickle", "1"), null);
    awaitState(jobs, P, "trickle", ObservedState.RUNNING);

    JobRecord r = records.get(P, "trickle").orElseThrow();
    records.put(r.withDesired(DesiredState.STOPPED, RestorePolicy.LATEST, Instant.now()), r.version());
    awaitState(jobs, P, "trickle", ObservedState.STOPPED);
    assertThat(timeline(jobs.events(P, "trickle"))).contains("reconciling: the job should be stopped but is RUNNING");

    r = records.get(P, "trickle").orElseThrow();
    records.put(r.withDesired(DesiredState.RUNNING, RestorePolicy.LATEST, Instant.now()), r.version());
    awaitState(jobs, P, "trickle", ObservedState.RUNNING);
    assertThat(timeline(jobs.events(P, "trickle")))
        .contains("reconciling: the job should run but is STOPPED; starting from the latest checkpoint");
  }

  @Test
  void aSpecChangedInTheStoreIsRolledOut() {
    jobs.apply(P, "trickle", trickle("trickle", "1"), null);
    awaitState(jobs, P, "trickle", ObservedState.RUNNING);

    JobRecord r = records.get(P, "trickle").orElseThrow();
    String changed = trickle("trickle", "2");
    records.put(r.withSpec(changed, SpecFingerprint.of(JobSpecs.parse(changed)), null, java.util.Map.of(), Instant.now()), r.version());
    ControlTests.await("the job runs at parallelism 2", Duration.ofSeconds(30),
        () -> timeline(jobs.events(P, "trickle")).contains("at parallelism 2")
            && jobs.get(P, "trickle").observed() == ObservedState.RUNNING);
    assertThat(timeline(jobs.events(P, "trickle")))
        .contains("reconciling: the run does not run spec generation 2")
        .contains("savepoint");
  }

  @Test
  void aJobWrittenByAnotherProcessIsTakenOverAndOneDeletedElsewhereIsForgotten() {
    String spec = trickle("elsewhere", "1");
    records.put(JobRecord.create(P, "elsewhere", spec, SpecFingerprint.of(JobSpecs.parse(spec)), Instant.now()), 0);
    awaitState(jobs, P, "elsewhere", ObservedState.RUNNING);
    ControlTests.await("its metrics are exported", Duration.ofSeconds(10),
        () -> jobs.prometheus().contains("job=\"elsewhere\""));

    JobRecord r = records.get(P, "elsewhere").orElseThrow();
    records.delete(P, "elsewhere", r.version());
    ControlTests.await("its metrics are gone with it", Duration.ofSeconds(10),
        () -> !jobs.prometheus().contains("job=\"elsewhere\""));
    assertThatThrownBy(() -> jobs.get(P, "elsewhere")).isInstanceOf(NotFoundException.class);
  }
}
