package io.tributary.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.cli.Pipelines;
import io.tributary.plan.ExecutionPlan;
import io.tributary.protocol.WorkerReport;
import io.tributary.scheduler.master.JobMaster;
import io.tributary.state.heap.HeapStateBackendFactory;
import io.tributary.worker.pool.ConnectorSplitEnumerator;
import io.tributary.worker.remote.LocalProcessWorkers;
import io.tributary.worker.remote.RemoteWorkerPool;
import io.tributary.worker.task.ConnectorFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The golden pipelines (window semantics, lateness, dead letters) with their tasks spread over two
 * worker processes: their committed output equals the golden files exactly, as in one process.
 */
class GoldenPipelineClusterIT {
  private static final String SECRET = "golden-pipeline-cluster-it";
  @TempDir
  static Path shared;
  private static RemoteWorkerPool pool;
  private static LocalProcessWorkers workers;

  @TempDir
  Path tmp;

  @BeforeAll
  static void startWorkers() {
    pool = new RemoteWorkerPool(RemoteWorkerPool.Settings.of(SECRET, shared.resolve("objects").toString()));
    List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx512m",
        "-cp", System.getProperty("java.class.path"), "io.tributary.cli.Main", "worker");
    workers = new LocalProcessWorkers(pool, new LocalProcessWorkers.Settings(2, 7, command,
        shared.resolve("cache"), shared.resolve("logs"), Map.of("TRIBUTARY_CLUSTER_SECRET", SECRET)));
    WorkerProcesses.await("two workers registered", Duration.ofSeconds(60), () -> pool.workers().size() == 2);
  }

  @AfterAll
  static void stopWorkers() {
    if (workers != null) {
      workers.close();
    }
    if (pool != null) {
      pool.close();
    }
  }

  @ParameterizedTest(name = "{0} at parallelism {1}, {3} state, on two worker processes")
  @CsvSource({
      "clicks, 2, results late bad, heap",
      "clicks, 3, results late bad, forst",
      "sessions, 3, sliding sessions, heap",
      "sessions, 2, sliding sessions, forst",
      "joins, 1, over-reserve newcomers sellers near-auction, heap",
      "aggregates, 2, per-auction cheap so-far hot first-bid first-in-hop all-bids, forst"})
  void outputEqualsGolden(String pipeline, int parallelism, String sinks, String backend) throws Exception {
    Path input = tmp.resolve("input.jsonl");
    String job = Pipelines.withInputs(pipeline, Pipelines.resource("pipelines/" + pipeline + "/job.yaml"), tmp);
    if (job.contains("${input}")) {
      Files.writeString(input, Pipelines.resource("pipelines/" + pipeline + "/input.jsonl"));
    }
    Path out = tmp.resolve("out");
    ExecutionPlan plan = Pipelines.plan(job, input, out, parallelism, backend);
    Set<String> workersUsed = ConcurrentHashMap.newKeySet();
    JobMaster master = new JobMaster(JobMaster.Settings.withoutCheckpoints(plan), new JobMaster.Services(pool,
        new ConnectorSplitEnumerator(ConnectorFactory.standard()), Map.of("heap", new HeapStateBackendFactory()), true),
        null, new JobMaster.Events() {
          @Override
          public void observed(WorkerReport report) {
            if (report instanceof WorkerReport.Metrics m) {
              workersUsed.add(m.worker());
            }
          }
        });
    master.run();

    assertThat(workersUsed).as("the tasks ran on both worker processes").hasSize(2);
    for (String sink : sinks.split(" ")) {
      List<String> golden = Pipelines.resource("pipelines/" + pipeline + "/expected-" + sink + ".jsonl").lines()
          .filter(l -> !l.isBlank()).sorted().toList();
      assertThat(Pipelines.committed(out.resolve(sink))).as("sink %s of %s", sink, pipeline)
          .containsExactlyElementsOf(golden);
    }
  }
}
