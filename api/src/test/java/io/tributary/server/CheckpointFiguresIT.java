package io.tributary.server;

import static io.tributary.server.ApiServerIT.apply;
import static io.tributary.server.ApiServerIT.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.client.ApiClient;
import io.tributary.client.api.CheckpointsApi;
import io.tributary.client.api.JobActionsApi;
import io.tributary.client.api.JobsApi;
import io.tributary.client.api.SavepointsApi;
import io.tributary.client.model.Checkpoint;
import io.tributary.client.model.Job;
import io.tributary.client.model.ObservedState;
import io.tributary.client.model.Savepoint;
import io.tributary.client.model.SnapshotStatus;
import io.tributary.client.model.StopRequest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Checkpoints and savepoints in the API carry their real figures: trigger and completion times,
 * duration, alignment, full and incremental size, bytes uploaded and parallelism; so does the job's
 * last checkpoint, also after the server restarted.
 */
class CheckpointFiguresIT {
  private static final String SPEC = """
      name: counts
      parallelism: 2
      checkpoints: {interval: 300ms}
      state: {backend: forst}
      sources:
        numbers: {type: datagen, keys: 200, maxRecordsPerSecond: 400, eventTime: {field: ts}}
      operators:
        - id: per-key
          input: numbers
          keyBy: [key]
          window: {type: tumbling, size: 1h}
          aggregate: {n: "count(*)", total: "sum(value)"}
      sinks:
        out: {input: per-key, type: blackhole}
      """;

  @TempDir
  Path dir;

  TributaryServer server;
  ApiClient client;

  @BeforeEach
  void start() {
    server = ServerTests.start(dir.resolve("data"), dir.resolve("files"));
    client = ServerTests.client(server, ServerTests.ADMIN);
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void checkpointsAndSavepointsCarryTheirTimesSizesUploadsAndParallelism() throws Exception {
    JobsApi jobs = new JobsApi(client);
    jobs.applyJob("default", "counts", apply(SPEC), null, null);
    CheckpointsApi checkpoints = new CheckpointsApi(client);
    List<Checkpoint> list = awaitCheckpoints(checkpoints, l -> l.size() >= 3, "3 checkpoints retained");

    assertThat(list).as("newest first").isSortedAccordingTo((a, b) -> Long.compare(b.getId(), a.getId()));
    assertThat(list).allSatisfy(c -> {
      assertThat(c.getStatus()).isEqualTo(SnapshotStatus.COMPLETED);
      assertThat(c.getDurationMillis()).as("checkpoint %d", c.getId()).isPositive();
      assertThat(c.getTriggeredAt()).isBefore(c.getCompletedAt());
      assertThat(Duration.between(c.getTriggeredAt(), c.getCompletedAt()).toMillis()).isEqualTo(c.getDurationMillis());
      assertThat(c.getAlignmentMillis()).isNotNull().isNotNegative().isLessThanOrEqualTo(c.getDurationMillis());
      assertThat(c.getSizeBytes()).as("keyed window state").isPositive();
      assertThat(c.getIncrementalSizeBytes()).isNotNegative().isLessThanOrEqualTo(c.getUploadedBytes());
      assertThat(c.getUploadedBytes()).as("at least its metadata").isPositive();
      assertThat(c.getParallelism()).isEqualTo(2);
    });
    assertThat(list.get(list.size() - 1).getCompletedAt()).isBeforeOrEqualTo(list.get(0).getTriggeredAt());

    Savepoint sp = new SavepointsApi(client).triggerSavepoint("default", "counts");
    assertThat(sp.getTrigger()).isEqualTo(Savepoint.TriggerEnum.USER);
    assertThat(sp.getDurationMillis()).isPositive();
    assertThat(Duration.between(sp.getTriggeredAt(), sp.getCompletedAt()).toMillis()).isEqualTo(sp.getDurationMillis());
    assertThat(sp.getAlignmentMillis()).isNotNull().isNotNegative();
    assertThat(sp.getSizeBytes()).isPositive();
    assertThat(sp.getIncrementalSizeBytes()).isNotNegative();
    assertThat(sp.getUploadedBytes()).isPositive();
    assertThat(sp.getParallelism()).isEqualTo(2);
    assertThat(new SavepointsApi(client).listSavepoints("default", "counts", null, null).getItems())
        .as("listed as triggered").containsExactly(sp);
    // the job's latest pointer names whichever completed last: wait for a checkpoint after the
    // savepoint, so that the stopped job's last one is a checkpoint with a retained entry
    long savepointId = Long.parseLong(sp.getId().substring("sp-".length()));
    awaitCheckpoints(checkpoints, l -> l.stream().anyMatch(c -> c.getId() > savepointId),
        "a checkpoint after savepoint " + sp.getId());

    Job stopped = new JobActionsApi(client).stopJob("default", "counts", new StopRequest().savepoint(false));
    assertThat(stopped.getObservedState()).isEqualTo(ObservedState.STOPPED);
    Checkpoint last = stopped.getLastCheckpoint();
    assertThat(last.getDurationMillis()).isPositive();
    assertThat(last.getSizeBytes()).isPositive();

    server.close();
    server = ServerTests.start(dir.resolve("data"), dir.resolve("files"));
    client = ServerTests.client(server, ServerTests.ADMIN);
    Job afterRestart = await(new JobsApi(client), "default", "counts", j -> j.getLastCheckpoint() != null);
    assertThat(afterRestart.getLastCheckpoint()).as("read from its entry").isEqualTo(last);
    assertThat(new CheckpointsApi(client).listCheckpoints("default", "counts", null, null).getItems())
        .as("entries kept").contains(last);
  }

  private static List<Checkpoint> awaitCheckpoints(CheckpointsApi api, Predicate<List<Checkpoint>> done, String what)
      throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    List<Checkpoint> items = api.listCheckpoints("default", "counts", null, null).getItems();
    while (!done.test(items)) {
      assertThat(System.nanoTime()).as("%s; seen %s", what, items).isLessThan(deadline);
      Thread.sleep(50); // polling interval of a condition with a deadline, not synchronisation by sleep
      items = api.listCheckpoints("default", "counts", null, null).getItems();
    }
    return items;
  }
}
