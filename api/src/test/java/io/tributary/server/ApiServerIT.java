package io.tributary.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.tributary.client.ApiClient;
import io.tributary.client.ApiException;
import io.tributary.client.ApiResponse;
import io.tributary.client.api.CheckpointsApi;
import io.tributary.client.api.EventsApi;
import io.tributary.client.api.JobActionsApi;
import io.tributary.client.api.JobsApi;
import io.tributary.client.api.PlansApi;
import io.tributary.client.api.SavepointsApi;
import io.tributary.client.model.DesiredState;
import io.tributary.client.model.ExecutionPlan;
import io.tributary.client.model.Job;
import io.tributary.client.model.JobApply;
import io.tributary.client.model.JobSpec;
import io.tributary.client.model.ObservedState;
import io.tributary.client.model.PlanChange;
import io.tributary.client.model.PlanRequest;
import io.tributary.client.model.RescaleRequest;
import io.tributary.client.model.RestorePolicy;
import io.tributary.client.model.Savepoint;
import io.tributary.client.model.StopRequest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The REST API through the generated Java client, against a real server on a free port. */
class ApiServerIT {
  static final String ADMIN = "admin-token-0123456789";
  static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  @TempDir
  Path dir;

  TributaryServer server;
  ApiClient client;

  @BeforeEach
  void start() {
    server = ServerTests.start(dir.resolve("data"), dir.resolve("files"));
    client = ServerTests.client(server, ADMIN);
  }

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  static JobApply apply(String yaml) throws Exception {
    JobSpec spec = ApiClient.createDefaultObjectMapper().treeToValue(YAML.readTree(yaml), JobSpec.class);
    return new JobApply().spec(spec);
  }

  static Job await(JobsApi jobs, String project, String name, Predicate<Job> until) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    Job j = jobs.getJob(project, name);
    while (!until.test(j)) {
      assertThat(System.nanoTime()).as("job %s to reach the expected state; last seen %s", name, j.getObservedState())
          .isLessThan(deadline);
      Thread.sleep(20); // polling interval of a condition with a deadline, not synchronisation by sleep
      j = jobs.getJob(project, name);
    }
    return j;
  }

  @Test
  void applyIsIdempotentAndVersionedWithETags() throws Exception {
    JobsApi jobs = new JobsApi(client);
    ApiResponse<Job> created = jobs.applyJobWithHttpInfo("default", "trickle", apply(ServerTests.trickle("trickle", 1)),
        null, null);
    assertThat(created.getStatusCode()).isEqualTo(201);
    assertThat(created.getHeaders().get("etag")).containsExactly("\"1\"");
    assertThat(created.getData().getDesiredState()).isEqualTo(DesiredState.RUNNING);

    ApiResponse<Job> again = jobs.applyJobWithHttpInfo("default", "trickle", apply(ServerTests.trickle("trickle", 1)),
        null, null);
    assertThat(again.getStatusCode()).isEqualTo(200);
    assertThat(again.getData().getVersion()).isEqualTo(1L);

    Job running = await(jobs, "default", "trickle", j -> j.getObservedState() == ObservedState.RUNNING);
    assertThat(running.getParallelism()).isEqualTo(1);
    assertThat(running.getMaxParallelism()).isEqualTo(128);
    assertThat(running.getTasks()).as("where each task runs: the server's own process")
        .extracting(t -> t.getStageId() + "/" + t.getSubtask() + "@" + t.getWorker()).isNotEmpty()
        .allMatch(s -> s.endsWith("@in-process"));
    assertThat(jobs.listJobs("default", null, null).getItems()).extracting(Job::getName).containsExactly("trickle");

    assertThatThrownBy(() -> jobs.applyJob("default", "trickle", apply(ServerTests.trickle("trickle", 2)), "\"7\"", null))
        .isInstanceOfSatisfying(ApiException.class, e -> {
          assertThat(e.getCode()).isEqualTo(412);
          assertThat(e.getResponseHeaders().firstValue("content-type")).hasValue("application/problem+json");
        });
    assertThatThrownBy(() -> jobs.applyJob("default", "trickle", apply(ServerTests.trickle("trickle", 1)), null, "*"))
        .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.getCode()).isEqualTo(412));

    jobs.deleteJob("default", "trickle", "\"1\"", null);
    assertThatThrownBy(() -> jobs.getJob("default", "trickle"))
        .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.getCode()).isEqualTo(404));
  }

  @Test
  void aJobCreatedStoppedDoesNotRunUntilResumed() throws Exception {
    JobsApi jobs = new JobsApi(client);
    Job j = jobs.applyJob("default", "later", apply(ServerTests.trickle("later", 1)).desiredState(DesiredState.STOPPED),
        null, null);
    assertThat(j.getDesiredState()).isEqualTo(DesiredState.STOPPED);
    assertThat(j.getObservedState()).isEqualTo(ObservedState.CREATED);
    new JobActionsApi(client).resumeJob("default", "later", new RestorePolicy().from(RestorePolicy.FromEnum.LATEST));
    await(jobs, "default", "later", x -> x.getObservedState() == ObservedState.RUNNING);
  }

  @Test
  void stopWithSavepointResumeRescaleAndEvents() throws Exception {
    JobsApi jobs = new JobsApi(client);
    JobActionsApi actions = new JobActionsApi(client);
    jobs.applyJob("default", "trickle", apply(ServerTests.trickle("trickle", 1)
        .replace("parallelism: 1", "parallelism: {initial: 1, max: 4}")), null, null);
    await(jobs, "default", "trickle", j -> j.getObservedState() == ObservedState.RUNNING && j.getLastCheckpoint() != null);
    assertThat(new CheckpointsApi(client).listCheckpoints("default", "trickle", null, null).getItems()).isNotEmpty();

    Job stopped = actions.stopJob("default", "trickle", new StopRequest().savepoint(true));
    assertThat(stopped.getObservedState()).isEqualTo(ObservedState.STOPPED);
    List<Savepoint> savepoints = new SavepointsApi(client).listSavepoints("default", "trickle", null, null).getItems();
    assertThat(savepoints).hasSize(1);
    String sp = savepoints.get(0).getId();
    assertThat(stopped.getRestorePolicy().getFrom()).isEqualTo(RestorePolicy.FromEnum.SAVEPOINT);
    assertThat(stopped.getRestorePolicy().getSavepointId()).isEqualTo(sp);
    Savepoint atStop = savepoints.get(0);
    assertThat(atStop.getTrigger()).isEqualTo(Savepoint.TriggerEnum.STOP);
    assertThat(atStop.getParallelism()).isEqualTo(1);
    assertThat(atStop.getSizeBytes()).isNotNull().isNotNegative();
    assertThat(atStop.getDurationMillis()).isNotNull().isNotNegative();
    assertThat(atStop.getTriggeredAt()).isEqualTo(atStop.getCompletedAt().minusNanos(atStop.getDurationMillis() * 1_000_000));
    SavepointsApi savepointsApi = new SavepointsApi(client);
    assertThatThrownBy(() -> savepointsApi.deleteSavepoint("default", "trickle", sp))
        .as("the job's restore policy names it").isInstanceOfSatisfying(ApiException.class, e -> {
          assertThat(e.getCode()).isEqualTo(409);
          assertThat(e.getResponseHeaders().firstValue("content-type")).hasValue("application/problem+json");
          assertThat(e.getResponseBody()).contains("restore");
        });
    assertThatThrownBy(() -> savepointsApi.deleteSavepoint("default", "trickle", "sp-999"))
        .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.getCode()).isEqualTo(404));

    Job resumed = actions.resumeJob("default", "trickle",
        new RestorePolicy().from(RestorePolicy.FromEnum.SAVEPOINT).savepointId(sp));
    assertThat(resumed.getDesiredState()).isEqualTo(DesiredState.RUNNING);
    await(jobs, "default", "trickle", j -> j.getObservedState() == ObservedState.RUNNING);

    Job rescaled = actions.rescaleJob("default", "trickle", new RescaleRequest().parallelism(2));
    assertThat(rescaled.getParallelism()).isEqualTo(2);
    await(jobs, "default", "trickle", j -> j.getObservedState() == ObservedState.RUNNING);

    assertThatThrownBy(() -> actions.resumeJob("default", "trickle",
        new RestorePolicy().from(RestorePolicy.FromEnum.SAVEPOINT).savepointId("sp-999")))
        .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.getCode()).isIn(400, 409));

    assertThat(new EventsApi(client).listJobEvents("default", "trickle", null, null).getItems())
        .extracting(e -> e.getMessage()).anyMatch(m -> m.contains("rescal"));

    List<Savepoint> after = savepointsApi.listSavepoints("default", "trickle", null, null).getItems();
    assertThat(after).extracting(Savepoint::getTrigger)
        .as("a rescale ends the run at a checkpoint, not a savepoint").containsExactly(Savepoint.TriggerEnum.STOP);
    java.nio.file.Path directory = dir.resolve("data/checkpoints/default--trickle/savepoints/" + sp);
    assertThat(directory.resolve("_metadata")).exists();
    savepointsApi.deleteSavepoint("default", "trickle", sp); // the job runs from the rescale's checkpoint now
    if (java.nio.file.Files.exists(directory)) { // emptied directories are removed
      try (var files = java.nio.file.Files.walk(directory)) {
        assertThat(files.filter(java.nio.file.Files::isRegularFile)).as("objects left in %s", directory).isEmpty();
      }
    }
    assertThat(after.get(0).getId()).isEqualTo(sp);
    assertThat(savepointsApi.listSavepoints("default", "trickle", null, null).getItems()).isEmpty();
    assertThatThrownBy(() -> savepointsApi.getSavepoint("default", "trickle", sp))
        .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.getCode()).isEqualTo(404));
  }

  @Test
  void aDryRunReturnsThePlanAndWhatApplyingWouldDo() throws Exception {
    PlansApi plans = new PlansApi(client);
    JobApply body = apply(ServerTests.trickle("planned", 2));
    ExecutionPlan plan = plans.planJob("default", new PlanRequest().spec(body.getSpec()));
    assertThat(plan.getChange().getAction()).isEqualTo(PlanChange.ActionEnum.CREATE);
    assertThat(plan.getStages()).hasSize(2);
    assertThat(plan.getStages().get(1).getParallelism()).isEqualTo(2);
    assertThat(plan.getStages().get(1).getKeyGroupRanges()).extracting(r -> r.getEnd()).containsExactly(64, 128);
    assertThatThrownBy(() -> new JobsApi(client).getJob("default", "planned"))
        .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.getCode()).isEqualTo(404));

    new JobsApi(client).applyJob("default", "planned", body, null, null);
    assertThat(plans.planJob("default", new PlanRequest().spec(body.getSpec())).getChange().getAction())
        .isEqualTo(PlanChange.ActionEnum.NONE);
  }

  @Test
  void runningJobsResumeWhenTheServerRestarts() throws Exception {
    JobsApi jobs = new JobsApi(client);
    jobs.applyJob("default", "trickle", apply(ServerTests.trickle("trickle", 1)), null, null);
    Job before = await(jobs, "default", "trickle",
        j -> j.getObservedState() == ObservedState.RUNNING && j.getLastCheckpoint() != null);
    server.close();
    server = ServerTests.start(dir.resolve("data"), dir.resolve("files"));
    client = ServerTests.client(server, ADMIN);
    JobsApi again = new JobsApi(client);
    Job after = await(again, "default", "trickle", j -> j.getObservedState() == ObservedState.RUNNING);
    assertThat(after.getVersion()).isEqualTo(before.getVersion());
    assertThat(new EventsApi(client).listJobEvents("default", "trickle", null, null).getItems())
        .extracting(e -> e.getMessage()).anyMatch(m -> m.contains("a new control plane takes the job over"));
  }
}
