package io.tributary.worker.task;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.connect.SourceSplit;
import io.tributary.plan.ChainLink;
import io.tributary.plan.ExecutionPlan;
import io.tributary.plan.SinkPlan;
import io.tributary.plan.SourcePlan;
import io.tributary.plan.StagePlan;
import io.tributary.protocol.AttemptDeployment;
import io.tributary.protocol.AttemptId;
import io.tributary.protocol.TaskDeployment;
import io.tributary.state.KeyGroups;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A source's {@code maxRecordsPerSecond} is the whole source's rate: its subtasks share it by the
 * splits they read, so a source of fewer splits than subtasks still reads at its whole rate.
 */
class SourceRateShareTest {
  @TempDir
  Path dir;

  @Test
  void oneFileReadAtParallelismThreeReadsAtTheWholeRate() throws Exception {
    Path file = dir.resolve("in.jsonl");
    Files.writeString(file, "{\"a\": 1}\n");

    assertThat(rates(Map.of("path", file.toString()), 3)).containsExactly(900.0, 0.0, 0.0);
  }

  @Test
  void splitsSpreadUnevenlyShareTheRateBySplits() throws Exception {
    for (String name : List.of("a", "b", "c", "d")) {
      Files.writeString(dir.resolve(name + ".jsonl"), "{\"a\": 1}\n");
    }

    // four files round robin over three subtasks: 2, 1 and 1 splits
    assertThat(rates(Map.of("path", dir.toString()), 3)).containsExactly(450.0, 225.0, 225.0);
  }

  /** The rate each subtask of a file source throttled to 900 records/s at {@code parallelism} reads at. */
  private static List<Double> rates(Map<String, Object> properties, int parallelism) {
    SourcePlan source = new SourcePlan("in", "file", "json", null, 900, null, properties);
    SinkPlan sink = new SinkPlan("out", "blackhole", "json", Map.of());
    ExecutionPlan plan = new ExecutionPlan("rate", 128, "heap", List.of(new StagePlan(0, "in -> out", parallelism,
        List.of(source, sink), List.of(new ChainLink("in", null, "out")))), List.of());
    List<? extends SourceSplit> splits = ConnectorFactory.standard().source(source).splits(parallelism);
    List<TaskDeployment> tasks = new ArrayList<>();
    for (int i = 0; i < parallelism; i++) {
      List<String> mine = new ArrayList<>();
      for (int s = i; s < splits.size(); s += parallelism) {
        mine.add(splits.get(s).id());
      }
      tasks.add(new TaskDeployment(0, i, "w", KeyGroups.rangeFor(128, parallelism, i), mine, null));
    }
    AttemptDeployment deployment = new AttemptDeployment(new AttemptId("rate", 0), plan, null, List.of(), tasks);
    TaskGraph graph = UnstartedGraphs.build(deployment, sink);
    return graph.tasks().stream().map(t -> ((SourceInput) t.input()).recordsPerSecond()).toList();
  }
}
