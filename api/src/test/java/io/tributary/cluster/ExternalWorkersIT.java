package io.tributary.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.boot.ClusterSecret;
import io.tributary.boot.ControlTests;
import io.tributary.boot.EmbeddedServices;
import io.tributary.boot.WorkersOption;
import io.tributary.connect.Endpoints;
import io.tributary.connect.StorageRoots;
import io.tributary.connectors.ConnectorPolicy;
import io.tributary.scheduler.lifecycle.ControlPlaneServices;
import io.tributary.scheduler.lifecycle.JobManager;
import io.tributary.scheduler.lifecycle.ObservedState;
import io.tributary.worker.remote.RemoteWorkerPool;
import io.tributary.worker.task.ConnectorFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Worker processes started by someone else ({@code server --workers external}): only a process that
 * knows the cluster secret joins; a worker paused past the heartbeat timeout is fenced — the job goes
 * on without it, and when it resumes it is told to drop its tasks and can neither acknowledge nor
 * commit anything of the attempt it ran; a slow sink on one worker slows the source on another,
 * with what is in flight bounded by the credits; a worker's connectors reach only what the control
 * plane's policy allows, checked on the worker as they open.
 */
@Timeout(180)
class ExternalWorkersIT {
  private static final String P = "default";
  private static final String SECRET = "external-workers-it-secret";
  private static final Pattern TOTAL = Pattern.compile(
      "tributary_job_records_(in|out)_total\\{job=\"(\\w+)\",project=\"default\"} ([0-9.E]+)");

  @TempDir
  Path tmp;

  private final List<Process> started = new ArrayList<>();
  private RemoteWorkerPool pool;
  private JobManager jobs;

  @AfterEach
  void stop() {
    if (jobs != null) {
      jobs.close();
    }
    started.forEach(Process::destroyForcibly);
  }

  private void controlPlane(Duration heartbeatTimeout) {
    controlPlane(heartbeatTimeout, ConnectorPolicy.unrestricted());
  }

  /** Jobs are validated without a policy; the workers are told {@code access} as they register. */
  private void controlPlane(Duration heartbeatTimeout, ConnectorPolicy access) {
    ControlPlaneServices services = EmbeddedServices.open(tmp.resolve("data"), ConnectorFactory.standard(), access,
        new WorkersOption(WorkersOption.Kind.EXTERNAL, 0, 0, "127.0.0.1", 0, heartbeatTimeout),
        new ClusterSecret(SECRET, false));
    pool = (RemoteWorkerPool) services.pool();
    jobs = JobManager.open(ControlTests.settings().withActionTimeout(Duration.ofSeconds(60)), services);
  }

  private Process worker(String id, int slots, String secret) {
    Process p = WorkerProcesses.start("127.0.0.1:" + pool.port(), id, slots, tmp.resolve("cache").resolve(id),
        log(id), secret);
    started.add(p);
    return p;
  }

  private Path log(String id) {
    return tmp.resolve("logs").resolve(id + ".log");
  }

  private void awaitWorkers(int n) {
    WorkerProcesses.await(n + " workers registered", Duration.ofSeconds(60), () -> pool.workers().size() >= n);
  }

  @Test
  void aProcessWithoutTheClusterSecretCannotJoin() throws Exception {
    controlPlane(Duration.ofSeconds(5));
    Process intruder = worker("intruder", 2, "not-the-cluster-secret");
    assertThat(intruder.waitFor()).as("the worker gives up at once, refused").isEqualTo(2);
    assertThat(WorkerProcesses.log(log("intruder"))).contains("the cluster secret is wrong");
    worker("member", 2, SECRET);
    awaitWorkers(1);
    assertThat(pool.workers()).extracting(RemoteWorkerPool.WorkerInfo::id).containsExactly("member");
  }

  @Test
  void aWorkerGivenEveryReplicasAddressJoinsTheOneThatLeadsAndFollowsTheLead() throws Exception {
    java.util.concurrent.atomic.AtomicBoolean aLeads = new java.util.concurrent.atomic.AtomicBoolean(false);
    WorkersOption external = new WorkersOption(WorkersOption.Kind.EXTERNAL, 0, 0, "127.0.0.1", 0,
        Duration.ofSeconds(5));
    ClusterSecret secret = new ClusterSecret(SECRET, false);
    try (ControlPlaneServices a = EmbeddedServices.open(tmp.resolve("a"), ConnectorFactory.standard(),
            ConnectorPolicy.unrestricted(), external, secret, io.tributary.boot.ServerConfiguration.defaults(),
            aLeads::get);
        ControlPlaneServices b = EmbeddedServices.open(tmp.resolve("b"), ConnectorFactory.standard(),
            ConnectorPolicy.unrestricted(), external, secret, io.tributary.boot.ServerConfiguration.defaults(),
            () -> !aLeads.get())) {
      RemoteWorkerPool poolA = (RemoteWorkerPool) a.pool();
      RemoteWorkerPool poolB = (RemoteWorkerPool) b.pool();
      Process w = WorkerProcesses.start("127.0.0.1:" + poolA.port() + ",127.0.0.1:" + poolB.port(), "roamer", 2,
          tmp.resolve("cache").resolve("roamer"), log("roamer"), SECRET);
      started.add(w);

      WorkerProcesses.await("the worker joins b, which leads", Duration.ofSeconds(60),
          () -> poolB.workers().size() == 1);
      assertThat(poolA.workers()).as("a, a follower, turned it away").isEmpty();
      assertThat(WorkerProcesses.log(log("roamer"))).contains(RemoteWorkerPool.NOT_LEADING);

      aLeads.set(true); // b loses the lead to a
      WorkerProcesses.await("the worker leaves b and joins a", Duration.ofSeconds(60),
          () -> poolA.workers().size() == 1 && poolB.workers().isEmpty());
      assertThat(w.isAlive()).as("turned away, a worker tries again; it does not give up").isTrue();
    }
  }

  @Test
  void aWorkerReachesOnlyWhatTheControlPlaneAllowsWhateverPassedValidation() throws Exception {
    Path files = tmp.resolve("files");
    controlPlane(Duration.ofSeconds(5), new ConnectorPolicy(StorageRoots.of(List.of(files)), Endpoints.parse("none")));
    worker("w1", 4, SECRET);
    awaitWorkers(1);
    Path out = tmp.resolve("out");
    jobs.apply(P, "bids", ControlTests.bidsPerAuction(out, 0, "1s", ""), null);
    ControlTests.awaitState(jobs, P, "bids", ObservedState.FAILED);
    var failure = jobs.get(P, "bids").failure();
    assertThat(failure.domain()).as(failure.message()).isEqualTo(io.tributary.protocol.Failure.Domain.USER);
    assertThat(failure.retryable()).isFalse();
    assertThat(failure.message()).contains(out.toString()).contains("outside the directories");
    assertThat(out).doesNotExist();

    String kafka = ControlTests.bidsPerAuction(files.resolve("default").resolve("out"), 0, "1s", "")
        .replace("name: bids", "name: to-kafka")
        .replaceAll("out: \\{input: per-auction, type: file, path: \"[^\"]*\"}",
            "out: {input: per-auction, type: kafka, bootstrapServers: \"127.0.0.1:9092\", topic: t}");
    jobs.apply(P, "to-kafka", kafka, null);
    ControlTests.awaitState(jobs, P, "to-kafka", ObservedState.FAILED);
    assertThat(jobs.get(P, "to-kafka").failure().message()).contains("127.0.0.1:9092");
  }

  @Test
  void aWorkerPausedPastItsHeartbeatTimeoutIsFencedAndDropsItsTasks() throws Exception {
    controlPlane(Duration.ofSeconds(2));
    for (int i = 1; i <= 3; i++) {
      worker("w" + i, 2, SECRET);
    }
    awaitWorkers(3);
    Path out = tmp.resolve("out");
    String spec = ControlTests.bidsPerAuction(out, 1500, "300ms", "").replace("events: 20000", "events: 30000");
    List<String> expected = ControlTests.reference(spec, out);
    try (var files = java.nio.file.Files.walk(out)) {
      files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
    }
    jobs.apply(P, "bids", spec, null);
    WorkerProcesses.await("the job runs and checkpoints", Duration.ofSeconds(60), () ->
        jobs.get(P, "bids").observed() == ObservedState.RUNNING && jobs.get(P, "bids").lastCheckpoint() != null);

    RemoteWorkerPool.WorkerInfo paused = pool.workers().stream().filter(w -> w.freeSlots() < w.slots())
        .findFirst().orElseThrow();
    assertThat(jobs.get(P, "bids").tasks()).as("the job shows where its tasks run")
        .extracting(io.tributary.scheduler.lifecycle.TaskPlacement::worker).contains(paused.id())
        .allMatch(w -> w.matches("w[123]"));
    WorkerProcesses.signal(paused.pid(), "STOP");
    WorkerProcesses.await("the job restarts without " + paused.id(), Duration.ofSeconds(60), () ->
        ControlTests.timeline(jobs.events(P, "bids")).contains("worker '" + paused.id() + "'")
            && ControlTests.timeline(jobs.events(P, "bids")).contains("run started (epoch 2)"));
    long fencedBefore = pool.fencedMessages();
    WorkerProcesses.signal(paused.pid(), "CONT");

    WorkerProcesses.await(paused.id() + " is told to drop its tasks and registers again", Duration.ofSeconds(60),
        () -> WorkerProcesses.log(log(paused.id())).contains("dropping attempt default--bids#1")
            && pool.workers().stream().anyMatch(w -> w.id().equals(paused.id()) && w.freeSlots() == w.slots()
                && w.pid() == paused.pid()));
    assertThat(pool.fencedMessages()).as("what it said after it was declared lost was fenced")
        .isGreaterThan(fencedBefore);
    assertThat(WorkerProcesses.log(log(paused.id()))).contains("refused by the control plane");

    ControlTests.awaitState(jobs, P, "bids", ObservedState.FINISHED);
    assertThat(ControlTests.committed(out)).as("committed output: nothing of the fenced attempt")
        .containsExactlyElementsOf(expected);
  }

  @Test
  void aSlowSinkOnOneWorkerSlowsTheSourceOnAnotherWithBoundedMemory() {
    controlPlane(Duration.ofSeconds(5));
    worker("source-side", 1, SECRET);
    awaitWorkers(1);
    worker("sink-side", 1, SECRET);
    awaitWorkers(2);
    jobs.apply(P, "slow", """
        name: slow
        parallelism: 1
        checkpoints: {interval: 1s}
        state: {backend: heap}
        sources:
          numbers: {type: datagen, count: 5000000, keys: 1000}
        operators:
          - {id: by-key, input: numbers, keyBy: [key]}
        sinks:
          out: {input: by-key, type: blackhole, maxRecordsPerSecond: 3000}
        """, null);
    WorkerProcesses.await("the job runs", Duration.ofSeconds(60), () ->
        jobs.get(P, "slow").observed() == ObservedState.RUNNING);
    WorkerProcesses.await("records reach the sink", Duration.ofSeconds(30), () -> total("out", "slow") > 20_000);
    double in0 = total("in", "slow");
    double out0 = total("out", "slow");
    long t0 = System.nanoTime();
    WorkerProcesses.await("five more seconds", Duration.ofSeconds(30), () -> System.nanoTime() - t0 > 5e9);
    double in1 = total("in", "slow");
    double out1 = total("out", "slow");
    double seconds = (System.nanoTime() - t0) / 1e9;
    // unthrottled, datagen reads hundreds of thousands of records a second
    assertThat((in1 - in0) / seconds).as("the source's rate, held to the sink's").isLessThan(6_000);
    // in flight: 2 exclusive + 8 floating credits of ~540 records, the sender's two buffers, read and
    // publishing batches, and a second of reports between two workers
    assertThat(in1 - out1).as("records read but not yet written").isLessThan(20_000);
    assertThat(out1 - out0).as("the sink keeps writing").isGreaterThan(5_000);
  }

  /** A job's records in (sources) or out (sinks) so far, from the Prometheus counters. */
  private double total(String which, String job) {
    Matcher m = TOTAL.matcher(jobs.prometheus());
    while (m.find()) {
      if (m.group(1).equals(which) && m.group(2).equals(job)) {
        return Double.parseDouble(m.group(3));
      }
    }
    return 0;
  }
}
