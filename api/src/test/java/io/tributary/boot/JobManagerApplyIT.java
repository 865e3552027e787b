package io.tributary.boot;

import static io.tributary.boot.ControlTests.awaitState;
import static io.tributary.boot.ControlTests.transitions;
import static io.tributary.boot.ControlTests.trickle;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.scheduler.lifecycle.CheckpointRef;
import io.tributary.scheduler.lifecycle.DesiredState;
import io.tributary.scheduler.lifecycle.InvalidRequestException;
import io.tributary.scheduler.lifecycle.JobEvent;
import io.tributary.scheduler.lifecycle.JobManager;
import io.tributary.scheduler.lifecycle.JobPage;
import io.tributary.scheduler.lifecycle.JobView;
import io.tributary.scheduler.lifecycle.NotFoundException;
import io.tributary.scheduler.lifecycle.ObservedState;
import io.tributary.scheduler.lifecycle.PreconditionFailedException;
import io.tributary.scheduler.lifecycle.StateConflictException;
import io.tributary.scheduler.master.RestorePolicy;
import io.tributary.scheduler.spec.InvalidSpecException;
import io.tributary.scheduler.spec.SpecError;
import io.tributary.worker.task.ConnectorFactory;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Applying specs and the errors the REST layer maps (400, 404, 409, 412), on small jobs that run
 * until stopped: idempotent apply, ETags, names, paging, and two projects with a job of the same
 * name.
 */
@Timeout(60)
class JobManagerApplyIT {
  @TempDir
  Path tmp;

  private JobManager jobs;

  @BeforeEach
  void open() {
    jobs = ControlTests.open(tmp.resolve("data"), ConnectorFactory.standard());
  }

  @AfterEach
  void close() {
    jobs.close();
  }

  @Test
  void applyingTheSameSpecAgainChangesNothingHoweverItIsFormatted() {
    String spec = trickle("clicks", "1");
    JobManager.ApplyResult created = jobs.apply("default", "clicks", spec, null);
    assertThat(created.outcome()).isEqualTo(JobManager.ApplyOutcome.CREATED);
    assertThat(created.job().version()).isEqualTo(1);
    assertThat(created.job().desired()).isEqualTo(DesiredState.RUNNING);
    assertThat(created.job().generation()).isEqualTo(1);
    awaitState(jobs, "default", "clicks", ObservedState.RUNNING);

    JobManager.ApplyResult again = jobs.apply("default", "clicks", spec, null);
    String reformatted = "# the same job\n" + spec.replace("checkpoints: {interval: 200ms}",
        "checkpoints:\n  interval: 200ms").replace("parallelism: 1", "parallelism: {initial: 1}");
    JobManager.ApplyResult same = jobs.apply("default", "clicks", reformatted, 1L);

    assertThat(again.outcome()).isEqualTo(JobManager.ApplyOutcome.UNCHANGED);
    assertThat(same.outcome()).isEqualTo(JobManager.ApplyOutcome.UNCHANGED);
    JobView view = jobs.get("default", "clicks");
    assertThat(view.version()).isEqualTo(1);
    assertThat(view.spec()).as("the stored text stays as first applied").isEqualTo(spec);
    assertThat(view.observed()).isEqualTo(ObservedState.RUNNING);
    assertThat(transitions(jobs.events("default", "clicks")))
        .as("no restart").containsExactly("CREATED->DEPLOYING", "DEPLOYING->RUNNING");
  }

  @Test
  void ifMatchGuardsEveryWriteWithTheVersionRead() {
    jobs.apply("default", "clicks", trickle("clicks", "1"), 0L);
    String changed = trickle("clicks", "1").replace("maxRecordsPerSecond: 50", "maxRecordsPerSecond: 60");

    assertThatThrownBy(() -> jobs.apply("default", "clicks", changed, 0L))
        .as("If-None-Match: * on an existing job").isInstanceOf(PreconditionFailedException.class);
    assertThatThrownBy(() -> jobs.apply("default", "clicks", changed, 7L))
        .isInstanceOfSatisfying(PreconditionFailedException.class, e -> {
          assertThat(e.expectedVersion()).isEqualTo(7);
          assertThat(e.actualVersion()).isEqualTo(1);
        });
    assertThat(jobs.get("default", "clicks").generation()).as("nothing written").isEqualTo(1);
    assertThatThrownBy(() -> jobs.apply("default", "other", trickle("other", "1"), 3L))
        .as("If-Match on a job that does not exist").isInstanceOf(PreconditionFailedException.class);

    JobManager.ApplyResult updated = jobs.apply("default", "clicks", changed, 1L);
    assertThat(updated.outcome()).isEqualTo(JobManager.ApplyOutcome.UPDATED);
    assertThat(updated.job().version()).isEqualTo(2);
    assertThat(updated.job().generation()).isEqualTo(2);
    awaitState(jobs, "default", "clicks", ObservedState.RUNNING);

    assertThatThrownBy(() -> jobs.delete("default", "clicks", 1L)).isInstanceOf(PreconditionFailedException.class);
    jobs.delete("default", "clicks", 2L);
    assertThatThrownBy(() -> jobs.get("default", "clicks")).isInstanceOf(NotFoundException.class);
  }

  @Test
  void badNamesSpecsAndParametersAreRefusedNamingWhatIsWrong() {
    assertThatThrownBy(() -> jobs.apply("default", "Clicks", trickle("clicks", "1"), null))
        .isInstanceOfSatisfying(InvalidRequestException.class, e -> assertThat(e.field()).isEqualTo("name"));
    assertThatThrownBy(() -> jobs.apply("no--such", "clicks", trickle("clicks", "1"), null))
        .isInstanceOfSatisfying(InvalidRequestException.class, e -> assertThat(e.field()).isEqualTo("project"));
    assertThatThrownBy(() -> jobs.apply("nowhere", "clicks", trickle("clicks", "1"), null))
        .isInstanceOf(NotFoundException.class).hasMessageContaining("project 'nowhere'");
    assertThatThrownBy(() -> jobs.apply("default", "clicks", trickle("other", "1"), null))
        .isInstanceOfSatisfying(InvalidSpecException.class,
            e -> assertThat(e.errors()).extracting(SpecError::pointer).containsExactly("/name"));
    assertThatThrownBy(() -> jobs.apply("default", "clicks",
        trickle("clicks", "1").replace("type: blackhole", "type: nowhere"), null))
        .isInstanceOfSatisfying(InvalidSpecException.class,
            e -> assertThat(e.errors()).extracting(SpecError::pointer).containsExactly("/sinks/out/type"));
    assertThatThrownBy(() -> jobs.get("default", "clicks")).as("nothing was created")
        .isInstanceOf(NotFoundException.class).hasMessageContaining("job 'clicks'");
    assertThatThrownBy(() -> jobs.stop("default", "clicks", false)).isInstanceOf(NotFoundException.class);

    jobs.apply("default", "clicks", trickle("clicks", "{initial: 1, min: 1, max: 2}"), null);
    assertThatThrownBy(() -> jobs.rescale("default", "clicks", 3))
        .isInstanceOfSatisfying(InvalidRequestException.class, e -> {
          assertThat(e.field()).isEqualTo("parallelism");
          assertThat(e.getMessage()).contains("max 2");
        });
    assertThatThrownBy(() -> jobs.rescale("default", "clicks", 0))
        .isInstanceOfSatisfying(InvalidRequestException.class, e -> assertThat(e.field()).isEqualTo("parallelism"));
    assertThatThrownBy(() -> jobs.resume("default", "clicks", RestorePolicy.LATEST))
        .as("resume a running job").isInstanceOfSatisfying(StateConflictException.class,
            e -> assertThat(e.retryable()).isFalse());
    assertThatThrownBy(() -> jobs.list("default", null, 0))
        .isInstanceOfSatisfying(InvalidRequestException.class, e -> assertThat(e.field()).isEqualTo("limit"));
  }

  @Test
  void aStageRescalesOnItsOwnKeepsItThroughASpecChangeAndFollowsAJobWideRescale() {
    String spec = trickle("clicks", "{initial: 1, min: 1, max: 2}");
    jobs.apply("default", "clicks", spec, null);
    awaitState(jobs, "default", "clicks", ObservedState.RUNNING);
    assertThatThrownBy(() -> jobs.rescale("default", "clicks", null, java.util.Map.of("nowhere", 2)))
        .isInstanceOfSatisfying(InvalidRequestException.class, e -> {
          assertThat(e.field()).isEqualTo("stages/nowhere");
          assertThat(e.getMessage()).contains("its stages begin with numbers, by-key");
        });
    assertThatThrownBy(() -> jobs.rescale("default", "clicks", null, java.util.Map.of("out", 3)))
        .isInstanceOfSatisfying(InvalidRequestException.class, e -> {
          assertThat(e.field()).isEqualTo("stages/out");
          assertThat(e.getMessage()).contains("max 2");
        });

    JobView rescaled = jobs.rescale("default", "clicks", null, java.util.Map.of("out", 2));

    assertThat(rescaled.parallelism()).isEqualTo(1);
    assertThat(rescaled.stageParallelism()).as("kept under the stage's first operator")
        .containsExactlyEntriesOf(java.util.Map.of("by-key", 2));
    JobView running = awaitState(jobs, "default", "clicks", ObservedState.RUNNING);
    assertThat(running.tasks()).extracting(t -> t.stage() + "/" + t.subtask())
        .containsExactlyInAnyOrder("numbers/0", "by-key -> out/0", "by-key -> out/1");
    assertThat(jobs.events("default", "clicks")).filteredOn(e -> e.type() == JobEvent.Type.STATE_CHANGED)
        .extracting(JobEvent::message).anySatisfy(m -> assertThat(m).contains("from parallelism 1 to 1 (by-key 2)"));

    jobs.apply("default", "clicks", spec.replace("maxRecordsPerSecond: 50", "maxRecordsPerSecond: 60"), null);
    assertThat(jobs.get("default", "clicks").stageParallelism()).as("a spec with the same parallelism keeps it")
        .containsExactlyEntriesOf(java.util.Map.of("by-key", 2));
    awaitState(jobs, "default", "clicks", ObservedState.RUNNING);
    assertThat(jobs.rescale("default", "clicks", null, java.util.Map.of("by-key", 1)).stageParallelism())
        .as("a stage given the job's parallelism follows the job again").isEmpty();
    awaitState(jobs, "default", "clicks", ObservedState.RUNNING);
    jobs.rescale("default", "clicks", null, java.util.Map.of("numbers", 2));
    awaitState(jobs, "default", "clicks", ObservedState.RUNNING);
    JobView wide = jobs.rescale("default", "clicks", 2);
    assertThat(wide.stageParallelism()).as("a job-wide rescale sets every stage").isEmpty();
    assertThat(awaitState(jobs, "default", "clicks", ObservedState.RUNNING).tasks()).hasSize(4);
  }

  @Test
  void aGlobalAggregateLeavesItsSourcesTaskWhenTheSourceRescalesAndNeverRescalesItself() {
    String spec = trickle("clicks", "{initial: 1, min: 1, max: 2}").replace(
        "  - {id: by-key, input: numbers, keyBy: [id]}",
        "  - {id: by-key, input: numbers, keyBy: [id]}\n"
            + "  - {id: total, input: numbers, aggregate: {n: \"count(*)\"}}")
        .replace("  out: {input: by-key, type: blackhole}",
            "  out: {input: by-key, type: blackhole}\n  totals: {input: total, type: blackhole}");
    jobs.apply("default", "clicks", spec, null);
    assertThat(awaitState(jobs, "default", "clicks", ObservedState.RUNNING).tasks())
        .extracting(t -> t.stage() + "/" + t.subtask()).as("at 1, the global window runs in the source's task")
        .containsExactlyInAnyOrder("numbers -> total -> totals/0", "by-key -> out/0");

    assertThatThrownBy(() -> jobs.rescale("default", "clicks", null, java.util.Map.of("total", 2)))
        .isInstanceOfSatisfying(InvalidRequestException.class, e -> {
          assertThat(e.field()).isEqualTo("stages/total");
          assertThat(e.getMessage()).contains("'total' always runs at parallelism 1");
        });
    jobs.rescale("default", "clicks", null, java.util.Map.of("numbers", 2));

    assertThat(awaitState(jobs, "default", "clicks", ObservedState.RUNNING).tasks())
        .extracting(t -> t.stage() + "/" + t.subtask())
        .containsExactlyInAnyOrder("numbers/0", "numbers/1", "total -> totals/0", "by-key -> out/0");
  }

  @Test
  void aStoppedJobTakesNoSavepointAndRunsAtItsNewParallelismOnResume() {
    jobs.apply("default", "clicks", trickle("clicks", "{initial: 1, min: 1, max: 2}"), null);
    awaitState(jobs, "default", "clicks", ObservedState.RUNNING);
    JobView stopped = jobs.stop("default", "clicks", false);
    assertThat(stopped.observed()).isEqualTo(ObservedState.STOPPED);
    assertThat(stopped.desired()).isEqualTo(DesiredState.STOPPED);
    assertThat(stopped.version()).isEqualTo(2);
    assertThat(jobs.stop("default", "clicks", false).version()).as("stopping again changes nothing").isEqualTo(2);
    assertThatThrownBy(() -> jobs.stop("default", "clicks", true)).isInstanceOfSatisfying(
        StateConflictException.class, e -> assertThat(e.state()).isEqualTo(ObservedState.STOPPED));
    assertThatThrownBy(() -> jobs.triggerSavepoint("default", "clicks")).isInstanceOf(StateConflictException.class);

    assertThat(jobs.rescale("default", "clicks", 2).parallelism()).isEqualTo(2);
    assertThat(jobs.get("default", "clicks").observed()).isEqualTo(ObservedState.STOPPED);
    jobs.resume("default", "clicks", null);
    awaitState(jobs, "default", "clicks", ObservedState.RUNNING);
    assertThat(jobs.events("default", "clicks")).filteredOn(e -> e.type() == JobEvent.Type.STATE_CHANGED)
        .last().extracting(JobEvent::message).asString().contains("parallelism 2");
  }

  @Test
  void aSpecWhoseAggregatesCannotTakeTheJobsStateIsRefusedAndTheJobRunsOn() {
    String spec = """
        name: counts
        parallelism: 1
        checkpoints: {interval: 200ms}
        state: {backend: heap}
        sources:
          numbers: {type: datagen, keys: 20, maxRecordsPerSecond: 200, eventTime: {field: ts}}
        operators:
          - id: per-key
            input: numbers
            keyBy: [key]
            window: {type: tumbling, size: 1h}
            aggregate: {n: "count(*)", total: "sum(value)"}
        sinks:
          out: {input: per-key, type: blackhole}
        """;
    jobs.apply("default", "counts", spec, null);
    ControlTests.await("a checkpoint", Duration.ofSeconds(30), () -> jobs.get("default", "counts").lastCheckpoint() != null);
    String more = spec.replace("total: \"sum(value)\"}", "total: \"sum(value)\", top: \"max(value)\"}");

    assertThatThrownBy(() -> jobs.apply("default", "counts", more, null))
        .isInstanceOfSatisfying(StateConflictException.class, e -> assertThat(e.retryable()).isFalse())
        .hasMessageContaining("job 'counts' cannot take this spec with its state: checkpoint ")
        .hasMessageContaining("operator 'per-key' has state of the aggregates [count, sum], but now computes "
            + "[count, sum, max]")
        .hasMessageEndingWith("resume from none to start without state");
    assertThat(jobs.get("default", "counts").generation()).as("nothing stored").isEqualTo(1);
    assertThatThrownBy(() -> jobs.apply("default", "counts", spec.replace("id: per-key", "id: per-user")
        .replace("input: per-key", "input: per-user"), null)).isInstanceOf(StateConflictException.class)
        .hasMessageContaining("operator 'per-key' has state (a window-aggregate [count, sum] keyed by [key]), but "
            + "the job no longer has a stateful operator of that id");
    assertThatThrownBy(() -> jobs.apply("default", "counts", spec.replace("backend: heap", "backend: forst"), null))
        .isInstanceOf(StateConflictException.class)
        .hasMessageContaining("its state was written by the 'heap' state backend, and the job now uses 'forst'");
    assertThatThrownBy(() -> jobs.apply("default", "counts", spec.replace("keyBy: [key]", "keyBy: [key, id]"), null))
        .isInstanceOf(StateConflictException.class)
        .hasMessageContaining("operator 'per-key' has state keyed by [key], but is now keyed by [key, id]");
    assertThat(jobs.get("default", "counts").observed()).isEqualTo(ObservedState.RUNNING);

    String renamed = spec.replace("n: \"count(*)\", total:", "views: \"count(*)\", sum:");
    assertThat(jobs.apply("default", "counts", renamed, null).outcome()).as("names may change")
        .isEqualTo(JobManager.ApplyOutcome.UPDATED);
    awaitState(jobs, "default", "counts", ObservedState.RUNNING);

    jobs.stop("default", "counts", false);
    assertThat(jobs.apply("default", "counts", more, null).outcome()).as("a stopped job takes it")
        .isEqualTo(JobManager.ApplyOutcome.UPDATED);
    assertThatThrownBy(() -> jobs.resume("default", "counts", null))
        .isInstanceOfSatisfying(InvalidRequestException.class, e -> assertThat(e.field()).isEqualTo("restore"))
        .hasMessageContaining("but now computes [count, sum, max]");
    assertThat(jobs.get("default", "counts").observed()).isEqualTo(ObservedState.STOPPED);
    jobs.resume("default", "counts", RestorePolicy.NONE);
    awaitState(jobs, "default", "counts", ObservedState.RUNNING);
  }

  @Test
  void aSpecWithoutAStatefulOperatorAppliesWhenItAllowsThatOperatorsStateToBeLeftBehind() {
    String spec = """
        name: two
        parallelism: 1
        checkpoints: {interval: 200ms}
        state: {backend: heap}
        sources:
          numbers: {type: datagen, keys: 20, maxRecordsPerSecond: 200, eventTime: {field: ts}}
        operators:
          - {id: per-key, input: numbers, keyBy: [key], window: {type: tumbling, size: 1h}, aggregate: {n: "count(*)"}}
          - {id: per-id, input: numbers, keyBy: [id], window: {type: tumbling, size: 1h}, aggregate: {n: "count(*)"}}
        sinks:
          keys: {input: per-key, type: blackhole}
          ids: {input: per-id, type: blackhole}
        """;
    jobs.apply("default", "two", spec, null);
    ControlTests.await("a checkpoint", Duration.ofSeconds(30), () -> jobs.get("default", "two").lastCheckpoint() != null);
    String without = spec.replaceAll("(?m)^.*per-id.*\n", "").replace("ids: {input: per-id, type: blackhole}\n", "");
    assertThat(without).doesNotContain("per-id");

    assertThatThrownBy(() -> jobs.apply("default", "two", without, null)).isInstanceOf(StateConflictException.class)
        .hasMessageContaining("operator 'per-id' has state (a window-aggregate [count] keyed by [id]), but the job no "
            + "longer has a stateful operator of that id (state belongs to an operator's id; "
            + "state.allowNonRestoredState: true leaves it behind)");
    String allowing = without.replace("{backend: heap}", "{backend: heap, allowNonRestoredState: true}");
    assertThat(jobs.apply("default", "two", allowing, null).outcome()).isEqualTo(JobManager.ApplyOutcome.UPDATED);
    ControlTests.await("the state left behind told", Duration.ofSeconds(30), () -> jobs.events("default", "two")
        .stream().anyMatch(e -> e.type() == JobEvent.Type.RESTORING && e.message().startsWith(
            "leaving behind the state of operator 'per-id' in savepoint ")));
    awaitState(jobs, "default", "two", ObservedState.RUNNING);
    long before = jobs.get("default", "two").lastCheckpoint().id();
    ControlTests.await("a checkpoint of the job without per-id", Duration.ofSeconds(30),
        () -> jobs.get("default", "two").lastCheckpoint().id() > before);

    jobs.stop("default", "two", false);
    assertThat(jobs.apply("default", "two", spec, null).outcome()).as("per-id back, stopped").isEqualTo(
        JobManager.ApplyOutcome.UPDATED);
    jobs.resume("default", "two", null);
    awaitState(jobs, "default", "two", ObservedState.RUNNING);
  }

  @Test
  void jobsAreListedInPagesInNameOrder() {
    for (String name : new String[] {"c", "a", "b"}) {
      jobs.apply("default", name, trickle(name, "1"), null);
    }
    JobPage first = jobs.list("default", null, 2);
    assertThat(first.jobs()).extracting(JobView::name).containsExactly("a", "b");
    JobPage second = jobs.list("default", first.nextPageToken(), 2);
    assertThat(second.jobs()).extracting(JobView::name).containsExactly("c");
    assertThat(second.nextPageToken()).isNull();
  }

  @Test
  void twoProjectsWithAJobOfTheSameNameShareNothing() {
    jobs.projects().create("team-a");
    jobs.apply("default", "clicks", trickle("clicks", "1"), null);
    jobs.apply("team-a", "clicks", trickle("clicks", "1"), null);
    for (String project : new String[] {"default", "team-a"}) {
      ControlTests.await(project + " checkpoints", Duration.ofSeconds(30),
          () -> jobs.get(project, "clicks").lastCheckpoint() != null);
    }
    CheckpointRef teamSavepoint = jobs.triggerSavepoint("team-a", "clicks");
    assertThat(teamSavepoint.path()).startsWith("team-a--clicks/savepoints/sp-");
    assertThat(jobs.get("default", "clicks").lastCheckpoint().path()).startsWith("default--clicks/checkpoints/");
    assertThat(jobs.checkpoints("default", "clicks")).isNotEmpty()
        .allSatisfy(c -> assertThat(c.path()).startsWith("default--clicks/"));
    assertThat(jobs.savepoints("default", "clicks")).isEmpty();
    assertThat(jobs.savepoints("team-a", "clicks")).extracting(CheckpointRef::path)
        .containsExactly(teamSavepoint.path());

    jobs.stop("default", "clicks", false);
    assertThat(jobs.get("team-a", "clicks").observed()).isEqualTo(ObservedState.RUNNING);
    assertThatThrownBy(() -> jobs.resume("default", "clicks",
        new RestorePolicy(RestorePolicy.Mode.PATH, teamSavepoint.path())))
        .as("another project's savepoint").isInstanceOfSatisfying(InvalidRequestException.class, e -> {
          assertThat(e.field()).isEqualTo("restore");
          assertThat(e.getMessage()).contains("another job");
        });
    jobs.delete("default", "clicks", null);
    assertThatThrownBy(() -> jobs.get("default", "clicks")).isInstanceOf(NotFoundException.class);
    assertThat(jobs.get("team-a", "clicks").observed()).isEqualTo(ObservedState.RUNNING);
    assertThat(jobs.events("team-a", "clicks")).isNotEmpty();
  }

  @Test
  void aFailedJobStaysFailedWithItsReasonAcrossAControlPlaneRestartUntilTheUserActs() {
    String missing = """
        name: broken
        checkpoints: {interval: 200ms}
        state: {backend: heap}
        sources:
          lines: {type: file, path: "%s"}
        sinks:
          out: {input: lines, type: blackhole}
        """.formatted(tmp.resolve("no-such-file.jsonl"));
    jobs.apply("default", "broken", missing, null);
    JobView failed = awaitState(jobs, "default", "broken", ObservedState.FAILED);
    assertThat(failed.failure().domain()).isEqualTo(io.tributary.protocol.Failure.Domain.USER);
    assertThat(failed.failure().retryable()).isFalse();
    assertThat(failed.desired()).isEqualTo(DesiredState.RUNNING);

    jobs.close();
    jobs = ControlTests.open(tmp.resolve("data"), ConnectorFactory.standard());
    JobView after = jobs.get("default", "broken");
    assertThat(after.observed()).isEqualTo(ObservedState.FAILED);
    assertThat(after.failure()).isEqualTo(failed.failure());
    assertThat(transitions(jobs.events("default", "broken"))).containsExactly("CREATED->DEPLOYING",
        "DEPLOYING->FAILED");

    assertThat(jobs.stop("default", "broken", false).observed()).isEqualTo(ObservedState.STOPPED);
    assertThat(jobs.get("default", "broken").failure()).isNull();
  }

  @Test
  void aJobCreatedAgainAfterADeleteStartsWithoutStateButKeepsItsPredecessorsSavepoints() {
    jobs.apply("default", "clicks", trickle("clicks", "1"), null);
    awaitState(jobs, "default", "clicks", ObservedState.RUNNING);
    CheckpointRef savepoint = jobs.triggerSavepoint("default", "clicks");
    jobs.delete("default", "clicks", null);

    JobManager.ApplyResult again = jobs.apply("default", "clicks", trickle("clicks", "1"), 0L);
    assertThat(again.outcome()).isEqualTo(JobManager.ApplyOutcome.CREATED);
    assertThat(again.job().version()).isEqualTo(1);
    assertThat(jobs.events("default", "clicks")).first().extracting(JobEvent::seq).isEqualTo(1L);
    assertThat(jobs.savepoints("default", "clicks")).extracting(CheckpointRef::path)
        .containsExactly(savepoint.path());
    ControlTests.await("a checkpoint of the new job", Duration.ofSeconds(30), () -> {
      CheckpointRef last = jobs.get("default", "clicks").lastCheckpoint();
      return last != null && last.id() > savepoint.id();
    });
    jobs.stop("default", "clicks", false);
    jobs.resume("default", "clicks", new RestorePolicy(RestorePolicy.Mode.PATH, savepoint.path()));
    awaitState(jobs, "default", "clicks", ObservedState.RUNNING);
    assertThat(jobs.events("default", "clicks")).filteredOn(e -> e.type() == JobEvent.Type.RESTORING)
        .extracting(JobEvent::message).containsExactly("restoring from savepoint " + savepoint.id() + " ("
            + savepoint.path() + ")");
  }
}
