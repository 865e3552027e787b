package io.tributary.worker.task;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.connect.SourceSplit;
import io.tributary.plan.AggregatePlan;
import io.tributary.plan.ChainLink;
import io.tributary.plan.EdgePlan;
import io.tributary.plan.EventTimePlan;
import io.tributary.plan.ExecutionPlan;
import io.tributary.plan.SinkPlan;
import io.tributary.plan.SourcePlan;
import io.tributary.plan.StagePlan;
import io.tributary.plan.WindowAggregatePlan;
import io.tributary.plan.WindowPlan;
import io.tributary.protocol.AttemptDeployment;
import io.tributary.protocol.AttemptId;
import io.tributary.protocol.TaskDeployment;
import io.tributary.state.KeyGroups;
import io.tributary.worker.exchange.Projection;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A projection caches field positions per schema and is not thread-safe, so the subtasks that send
 * into one exchange each have their own: sharing one, two source threads raced on its cache.
 */
class ExchangeProjectionTest {
  @Test
  void everySenderHasAProjectionOfItsOwn() {
    int parallelism = 2;
    SourcePlan source = new SourcePlan("gen", "datagen", "json", new EventTimePlan("ts", 0, 0), 0, null,
        Map.of("count", 1_000L, "keys", 40, "interval", "1ms", "startTime", 0L));
    SinkPlan sink = new SinkPlan("out", "blackhole", "json", Map.of());
    ExecutionPlan plan = new ExecutionPlan("projections", 128, "heap", List.of(
        new StagePlan(0, "gen", parallelism, List.of(source), List.of()),
        new StagePlan(1, "per-key -> out", parallelism, List.of(
            new WindowAggregatePlan("per-key", List.of("key"), WindowPlan.tumbling(1000), 0, null,
                List.of(new AggregatePlan("n", AggregatePlan.Function.COUNT, null))),
            sink), List.of(new ChainLink("per-key", null, "out")))),
        List.of(new EdgePlan(0, "gen", null, 1, "per-key", EdgePlan.Partitioning.HASH, List.of("key"))));
    List<? extends SourceSplit> splits = ConnectorFactory.standard().source(source).splits(parallelism);
    List<TaskDeployment> tasks = new ArrayList<>();
    for (int i = 0; i < parallelism; i++) {
      tasks.add(new TaskDeployment(0, i, "w", KeyGroups.rangeFor(128, parallelism, i), List.of(splits.get(i).id()),
          null));
      tasks.add(new TaskDeployment(1, i, "w", KeyGroups.rangeFor(128, parallelism, i), List.of(), null));
    }
    AttemptDeployment deployment = new AttemptDeployment(new AttemptId("projections", 0), plan, null, List.of(),
        tasks);
    TaskGraph graph = UnstartedGraphs.build(deployment, sink);

    List<Projection> projections = graph.tasks().stream()
        .flatMap(t -> t.exchanges().stream())
        .map(ExchangeOutput::projection)
        .toList();
    assertThat(projections).hasSize(parallelism).doesNotContainNull();
    assertThat(projections.get(0)).isNotSameAs(projections.get(1));
    assertThat(projections.get(0).fields()).isEqualTo(projections.get(1).fields()).containsExactly("key");
  }
}
