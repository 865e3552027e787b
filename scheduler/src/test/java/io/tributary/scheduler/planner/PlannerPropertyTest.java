package io.tributary.scheduler.planner;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.plan.ChainLink;
import io.tributary.plan.EdgePlan;
import io.tributary.plan.ExecutionPlan;
import io.tributary.plan.OperatorPlan;
import io.tributary.plan.StagePlan;
import io.tributary.scheduler.spec.JobSpec;
import io.tributary.scheduler.spec.JobSpecs;
import io.tributary.scheduler.spec.OperatorSpec;
import io.tributary.scheduler.spec.SinkSpec;
import io.tributary.scheduler.spec.SpecGraph;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Invariants of plans of random valid specs. */
class PlannerPropertyTest {
  @Test
  void plansKeepTheirInvariants() {
    long seed = new Random().nextLong();
    Random random = new Random(seed);
    for (int run = 0; run < 100; run++) {
      String text = randomSpec(random);
      JobSpec spec = JobSpecs.parse(text);
      ExecutionPlan plan = Planner.plan(spec);
      check(spec, plan, "seed " + seed + ", run " + run + ":\n" + text);
    }
  }

  private static String randomSpec(Random random) {
    StringBuilder out = new StringBuilder("{\"name\": \"j\", \"parallelism\": " + (1 + random.nextInt(8)) + ", \"sources\": {");
    List<String> producers = new ArrayList<>();
    int sources = 1 + random.nextInt(3);
    for (int i = 0; i < sources; i++) {
      out.append(i == 0 ? "" : ", ").append("\"s").append(i)
          .append("\": {\"type\": \"datagen\", \"eventTime\": {\"field\": \"ts\"}, \"deadLetterOutput\": \"d").append(i).append("\"}");
      producers.add("s" + i);
      producers.add("d" + i);
    }
    out.append("}, \"operators\": [");
    int operators = random.nextInt(10);
    for (int i = 0; i < operators; i++) {
      String input = producers.get(random.nextInt(producers.size()));
      out.append(i == 0 ? "" : ", ").append("{\"id\": \"o").append(i).append("\", \"input\": \"").append(input).append("\", ")
          .append(randomBody(random, i)).append('}');
      producers.add("o" + i);
      if (out.toString().endsWith("\"lateOutput\": \"l" + i + "\"}}")) {
        producers.add("l" + i);
      }
    }
    out.append("], \"sinks\": {");
    int sinks = 1 + random.nextInt(3);
    for (int i = 0; i < sinks; i++) {
      out.append(i == 0 ? "" : ", ").append("\"k").append(i).append("\": {\"type\": \"stdout\", \"input\": \"")
          .append(producers.get(random.nextInt(producers.size()))).append("\"}");
    }
    return out.append("}}").toString();
  }

  private static String randomBody(Random random, int i) {
    String window = "\"window\": {\"type\": \"tumbling\", \"size\": \"1s\"}";
    return switch (random.nextInt(5)) {
      case 0 -> "\"filter\": \"a > " + i + "\"";
      case 1 -> "\"keyBy\": [\"a\"]";
      case 2 -> "\"keyBy\": [\"a\"], " + window + ", \"aggregate\": {\"n\": \"count(*)\"}";
      case 3 -> window + ", \"aggregate\": {\"n\": \"count(*)\"}";
      default -> "\"keyBy\": \"b\", \"aggregate\": {\"n\": \"sum(a)\"}, "
          + "\"window\": {\"type\": \"session\", \"gap\": \"1s\", \"lateOutput\": \"l" + i + "\"}";
    };
  }

  private static void check(JobSpec spec, ExecutionPlan plan, String context) {
    Map<String, StagePlan> stageOf = new HashMap<>();
    for (StagePlan stage : plan.stages()) {
      for (OperatorPlan op : stage.operators()) {
        assertThat(stageOf.put(op.id(), stage)).as("%s placed twice; %s", op.id(), context).isNull();
      }
    }
    int nodes = spec.sources().size() + spec.operators().size() + spec.sinks().size();
    assertThat(stageOf).as(context).hasSize(nodes);
    for (EdgePlan e : plan.edges()) {
      assertThat(e.fromStage()).as(context).isLessThan(e.toStage());
      assertThat(stageOf.get(e.toOperator()).id()).as(context).isEqualTo(e.toStage());
      assertThat(stageOf.get(e.fromOperator()).id()).as(context).isEqualTo(e.fromStage());
    }
    SpecGraph graph = SpecGraph.of(spec);
    for (OperatorSpec op : spec.operators()) {
      SpecGraph.Producer from = graph.resolve(op.input());
      boolean chainsGlobal = op.isGlobalWindow() && stageOf.get(from.nodeId()).parallelism() == 1
          && (spec.checkpoints() == null || !spec.checkpoints().unaligned());
      checkInput(op.id(), from, op.keyBy(), op.window() != null && !chainsGlobal, plan, stageOf, context);
      if (op.isGlobalWindow()) {
        assertThat(stageOf.get(op.id()).parallelism()).as(context).isEqualTo(1);
      }
    }
    for (SinkSpec sink : spec.sinks().values()) {
      checkInput(sink.id(), graph.resolve(sink.input()), null, false, plan, stageOf, context);
    }
  }

  private static void checkInput(String id, SpecGraph.Producer from, List<String> keyBy, boolean window,
      ExecutionPlan plan, Map<String, StagePlan> stageOf, String context) {
    StagePlan stage = stageOf.get(id);
    List<ChainLink> links = stage.links().stream().filter(l -> l.to().equals(id)).toList();
    List<EdgePlan> edges = plan.edges().stream().filter(e -> e.toOperator().equals(id)).toList();
    assertThat(links.size() + edges.size()).as("%s inputs; %s", id, context).isEqualTo(1);
    if (keyBy != null || window) { // a global window chained into its input's stage at 1 is not hashed
      assertThat(edges).as(context).singleElement().satisfies(e -> {
        assertThat(e.partitioning()).isEqualTo(EdgePlan.Partitioning.HASH);
        assertThat(e.keyFields()).isEqualTo(keyBy == null ? List.of() : keyBy);
      });
    }
    String fromOperator = links.isEmpty() ? edges.get(0).fromOperator() : links.get(0).from();
    String port = links.isEmpty() ? edges.get(0).port() : links.get(0).port();
    assertThat(fromOperator).as(context).isEqualTo(from.nodeId());
    assertThat(port).as(context).isEqualTo(from.port());
    if (!links.isEmpty()) {
      assertThat(stageOf.get(from.nodeId())).as(context).isSameAs(stage);
    }
  }
}
