package io.tributary.boot;

import static io.tributary.boot.ControlTests.awaitState;
import static io.tributary.boot.ControlTests.bidsPerAuction;
import static io.tributary.boot.ControlTests.committed;
import static io.tributary.boot.ControlTests.hidden;
import static io.tributary.boot.ControlTests.timeline;
import static io.tributary.boot.ControlTests.transitions;
import static io.tributary.boot.ControlTests.trickle;
import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.scheduler.lifecycle.CheckpointRef;
import io.tributary.scheduler.lifecycle.DesiredState;
import io.tributary.scheduler.lifecycle.JobEvent;
import io.tributary.scheduler.lifecycle.JobManager;
import io.tributary.scheduler.lifecycle.JobView;
import io.tributary.scheduler.lifecycle.ObservedState;
import io.tributary.scheduler.master.RestorePolicy;
import io.tributary.protocol.Failure;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The lifecycle of a running keyed window job (contracts C7, C9, C10): stopped at a savepoint,
 * resumed, rescaled, rolled out with a changed spec, restarted, and taken over by a new control
 * plane, it commits exactly the output of one uninterrupted run. The job's Nexmark source is
 * throttled so that actions happen while it has input left, and held at its end until the test
 * releases it.
 */
@Timeout(90)
class JobLifecycleIT {
  private static final String P = "default";

  @TempDir
  Path tmp;

  @Test
  void aJobStoppedAtASavepointResumedAndRescaledKeepsItsState() throws Exception {
    Path out = tmp.resolve("out");
    List<String> expected = reference();
    HeldSources sources = new HeldSources();
    try (JobManager jobs = ControlTests.open(tmp.resolve("data"), sources)) {
      jobs.apply(P, "bids", bidsPerAuction(out, 4000, "200ms", ""), null);
      awaitCommittedOutput(jobs, out);

      JobView stopped = jobs.stop(P, "bids", true);
      assertThat(stopped.observed()).isEqualTo(ObservedState.STOPPED);
      assertThat(stopped.restore().mode()).isEqualTo(RestorePolicy.Mode.PATH);
      String savepoint = stopped.restore().path();
      assertThat(savepoint).startsWith("default--bids/savepoints/sp-");
      assertThat(jobs.savepoints(P, "bids")).extracting(CheckpointRef::path).containsExactly(savepoint);
      List<String> atStop = committed(out);
      assertThat(atStop.size()).as("stopped before the end").isLessThan(expected.size());

      JobView resumed = jobs.resume(P, "bids", null);
      assertThat(resumed.restore().path()).isEqualTo(savepoint);
      long resumedFrom = awaitState(jobs, P, "bids", ObservedState.RUNNING).lastCheckpoint().id();
      ControlTests.await("a checkpoint after the resume", Duration.ofSeconds(30),
          () -> jobs.get(P, "bids").lastCheckpoint().id() > resumedFrom);

      JobView rescaled = jobs.rescale(P, "bids", 1);
      assertThat(rescaled.parallelism()).isEqualTo(1);
      awaitState(jobs, P, "bids", ObservedState.RUNNING);
      sources.release();
      awaitState(jobs, P, "bids", ObservedState.FINISHED);

      List<JobEvent> events = jobs.events(P, "bids");
      assertThat(transitions(events)).as(timeline(events)).containsExactly(
          "CREATED->DEPLOYING", "DEPLOYING->RUNNING",
          "RUNNING->STOPPING", "STOPPING->STOPPED",
          "STOPPED->DEPLOYING", "DEPLOYING->RUNNING",
          "RUNNING->RESCALING", "RESCALING->DEPLOYING", "DEPLOYING->RUNNING",
          "RUNNING->FINISHED");
      assertThat(events).extracting(JobEvent::seq).isSorted().doesNotHaveDuplicates();
      assertThat(events).extracting(JobEvent::time).isSorted();
      List<String> restores = events.stream().filter(e -> e.type() == JobEvent.Type.RESTORING)
          .map(JobEvent::message).toList();
      assertThat(restores).hasSize(2);
      assertThat(restores.get(0)).startsWith("restoring from savepoint").contains(savepoint);
      assertThat(restores.get(1)).as("a rescale restores the checkpoint it ended the run at, copying nothing")
          .startsWith("restoring from checkpoint");
      assertThat(events).filteredOn(e -> e.type() == JobEvent.Type.SAVEPOINT).as("only the stop's").hasSize(1);
    }
    assertExactlyTheReferenceOutput(out, expected);
  }

  @Test
  void aChangedSpecRollsOutBySavepointAndOneThatCannotRestoreFailsKeepingTheState() throws Exception {
    Path out = tmp.resolve("out");
    List<String> expected = reference();
    HeldSources sources = new HeldSources();
    String v1 = bidsPerAuction(out, 4000, "200ms", "");
    String v2 = bidsPerAuction(out, 4000, "300ms", "");
    String v3 = bidsPerAuction(out, 4000, "300ms", "maxParallelism: 64\n");
    try (JobManager jobs = ControlTests.open(tmp.resolve("data"), sources)) {
      jobs.apply(P, "bids", v1, null);
      awaitCommittedOutput(jobs, out);

      assertThat(jobs.apply(P, "bids", v2, null).outcome()).isEqualTo(JobManager.ApplyOutcome.UPDATED);
      awaitState(jobs, P, "bids", ObservedState.RUNNING);

      assertThat(jobs.apply(P, "bids", v3, null).outcome()).isEqualTo(JobManager.ApplyOutcome.UPDATED);
      JobView failed = awaitState(jobs, P, "bids", ObservedState.FAILED);
      assertThat(failed.failure().domain()).isEqualTo(Failure.Domain.USER);
      assertThat(failed.failure().retryable()).isFalse();
      assertThat(failed.failure().message()).contains("maxParallelism").contains("64").contains("128")
          .contains("kept in savepoint default--bids/savepoints/sp-").contains("apply the previous spec again");

      assertThat(jobs.apply(P, "bids", v2, null).outcome()).as("back to v2").isEqualTo(JobManager.ApplyOutcome.UPDATED);
      awaitState(jobs, P, "bids", ObservedState.RUNNING);
      JobView restarted = jobs.restart(P, "bids");
      assertThat(restarted.restore()).isEqualTo(RestorePolicy.LATEST);
      awaitState(jobs, P, "bids", ObservedState.RUNNING);
      sources.release();
      awaitState(jobs, P, "bids", ObservedState.FINISHED);

      List<JobEvent> events = jobs.events(P, "bids");
      assertThat(transitions(events)).as(timeline(events)).containsExactly(
          "CREATED->DEPLOYING", "DEPLOYING->RUNNING",
          "RUNNING->UPDATING", "UPDATING->DEPLOYING", "DEPLOYING->RUNNING",
          "RUNNING->UPDATING", "UPDATING->DEPLOYING", "DEPLOYING->FAILED",
          "FAILED->DEPLOYING", "DEPLOYING->RUNNING",
          "RUNNING->RECOVERING", "RECOVERING->DEPLOYING", "DEPLOYING->RUNNING",
          "RUNNING->FINISHED");
      assertThat(events).filteredOn(e -> e.type() == JobEvent.Type.SPEC_CHANGED).hasSize(3);
      assertThat(jobs.get(P, "bids").generation()).isEqualTo(4);
    }
    assertExactlyTheReferenceOutput(out, expected);
  }

  @Test
  void aNewControlPlaneResumesRunningJobsFromTheirLatestCheckpointAndLeavesStoppedOnesStopped() throws Exception {
    Path out = tmp.resolve("out");
    List<String> expected = reference();
    HeldSources sources = new HeldSources();
    long lastBeforeClose;
    try (JobManager jobs = ControlTests.open(tmp.resolve("data"), sources)) {
      jobs.apply(P, "bids", bidsPerAuction(out, 4000, "200ms", ""), null);
      jobs.apply(P, "idle", trickle("idle", "1"), null);
      awaitState(jobs, P, "idle", ObservedState.RUNNING);
      jobs.stop(P, "idle", false);
      awaitCommittedOutput(jobs, out);
      lastBeforeClose = jobs.get(P, "bids").lastCheckpoint().id();
    }
    List<String> atClose = committed(out);

    try (JobManager jobs = ControlTests.open(tmp.resolve("data"), sources)) {
      JobView bids = awaitState(jobs, P, "bids", ObservedState.RUNNING);
      assertThat(bids.desired()).isEqualTo(DesiredState.RUNNING);
      JobView idle = jobs.get(P, "idle");
      assertThat(idle.observed()).isEqualTo(ObservedState.STOPPED);
      assertThat(transitions(jobs.events(P, "idle"))).as("the stopped job was not started")
          .containsExactly("CREATED->DEPLOYING", "DEPLOYING->RUNNING", "RUNNING->STOPPING", "STOPPING->STOPPED");

      List<JobEvent> events = jobs.events(P, "bids");
      assertThat(transitions(events)).as(timeline(events)).containsExactly(
          "CREATED->DEPLOYING", "DEPLOYING->RUNNING",
          "RUNNING->RECOVERING", "RECOVERING->DEPLOYING", "DEPLOYING->RUNNING");
      JobEvent restoring = events.stream().filter(e -> e.type() == JobEvent.Type.RESTORING).findFirst().orElseThrow();
      long restoredId = Long.parseLong(restoring.message().replaceAll("restoring from checkpoint (\\d+) .*", "$1"));
      assertThat(restoredId).as(restoring.message()).isGreaterThanOrEqualTo(lastBeforeClose);
      assertThat(committed(out)).as("output committed before the close stays").containsAll(atClose);

      sources.release();
      awaitState(jobs, P, "bids", ObservedState.FINISHED);
    }
    assertExactlyTheReferenceOutput(out, expected);
  }

  /** The output of one uninterrupted, unthrottled run of the job. */
  private List<String> reference() throws InterruptedException {
    Path out = tmp.resolve("reference");
    return ControlTests.reference(bidsPerAuction(out, 0, "200ms", ""), out);
  }

  private static void awaitCommittedOutput(JobManager jobs, Path out) {
    awaitState(jobs, P, "bids", ObservedState.RUNNING);
    ControlTests.await("committed output", Duration.ofSeconds(30),
        () -> jobs.get(P, "bids").lastCheckpoint() != null && !committed(out).isEmpty());
  }

  private static void assertExactlyTheReferenceOutput(Path out, List<String> expected) {
    List<String> actual = committed(out);
    assertThat(actual).as("committed output").containsExactlyElementsOf(expected);
    ControlTests.assertOneResultPerKeyAndWindow(actual, "auction");
    assertThat(hidden(out)).as("nothing left in progress or pending").isEmpty();
  }
}
