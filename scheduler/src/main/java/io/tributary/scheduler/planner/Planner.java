package io.tributary.scheduler.planner;

import io.tributary.plan.ChainLink;
import io.tributary.plan.EdgePlan;
import io.tributary.plan.EdgePlan.Partitioning;
import io.tributary.plan.ExecutionPlan;
import io.tributary.plan.GroupAggregatePlan;
import io.tributary.plan.OperatorPlan;
import io.tributary.plan.StagePlan;
import io.tributary.plan.TopNPlan;
import io.tributary.plan.WindowAggregatePlan;
import io.tributary.scheduler.spec.InvalidSpecException;
import io.tributary.scheduler.spec.JobSpec;
import io.tributary.scheduler.spec.OperatorSpec;
import io.tributary.scheduler.spec.SinkSpec;
import io.tributary.scheduler.spec.SourceSpec;
import io.tributary.scheduler.spec.SpecError;
import io.tributary.scheduler.spec.SpecGraph;
import io.tributary.scheduler.spec.SpecValidator;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns a job spec into an {@link ExecutionPlan}.
 *
 * <ul>
 *   <li>Every source and operator runs at the job's parallelism, except a window or an aggregate
 *       without keys (a global window or group), which runs at parallelism 1 together with everything
 *       chained after it, and a
 *       stage given a parallelism of its own (by the id of its first operator, see {@link
 *       #head(StagePlan)}), which runs at that.
 *   <li>An operator or sink is chained into its input's stage unless it has {@code keyBy}, an
 *       aggregate or a {@code topN} (then a {@link Partitioning#HASH} exchange on the key fields,
 *       a top-N's {@code partitionBy}; a global window or
 *       group gets a HASH exchange with no key fields) or its parallelism differs from its input's (a
 *       {@link Partitioning#REBALANCE} exchange). A global window, group or top-N whose input's stage
 *       runs at parallelism 1 is chained into it too, unless checkpoints are unaligned.
 *   <li>An operator with several inputs (a {@code union}, a {@code join}) heads a stage of its own,
 *       placed once every input is: one exchange per input, into that input's index ({@link
 *       EdgePlan#toInput()}): a join's {@link Partitioning#HASH} on each side's keys; a union's HASH
 *       on {@code keyBy} when it has one (or a window), else
 *       {@link Partitioning#FORWARD} from an input of the same parallelism and
 *       {@link Partitioning#REBALANCE} from one of another.
 *   <li>An input naming a side output links from its declaring operator with that name as port.
 *   <li>Stages are numbered in depth-first order from the sources, so every exchange goes from a
 *       lower to a higher stage; each is named by its operator ids joined with {@code " -> "}.
 * </ul>
 *
 * <p>Before planning, every sink's delivery must be possible ({@link DeliveryChecks}): a kafka sink
 * with {@code delivery: exactly-once} needs {@code checkpoints}, and a transaction timeout larger
 * than the checkpoint interval plus {@link DeliveryChecks#RESTART_ALLOWANCE_MS} (one minute).
 */
public final class Planner {
  private final JobSpec spec;
  private final int parallelism;
  private final Map<String, Integer> stageParallelism;
  private final SpecGraph graph;
  private final Map<String, List<Object>> consumers = new LinkedHashMap<>();
  /** Per operator with several inputs: how many of its producers are not placed yet. */
  private final Map<String, Integer> unplacedProducers = new HashMap<>();
  private final Map<String, StageBuilder> stageOf = new LinkedHashMap<>();
  private final List<StageBuilder> stages = new ArrayList<>();
  private final List<EdgePlan> edges = new ArrayList<>();

  private Planner(JobSpec spec, Map<String, Integer> stageParallelism) {
    this.spec = spec;
    this.parallelism = spec.parallelism().initial();
    this.stageParallelism = stageParallelism;
    this.graph = SpecGraph.of(spec);
  }

  /** The plan of {@code spec} at its initial parallelism; see {@link #plan(JobSpec, Integer)}. */
  public static ExecutionPlan plan(JobSpec spec) {
    return plan(spec, null);
  }

  /**
   * The plan of {@code spec}.
   *
   * @param parallelismOverride null, or the parallelism to run at instead of the spec's initial
   *     one (the bounds widen to include it; when the spec does not fix maxParallelism, its default
   *     follows the widened bound)
   * @throws InvalidSpecException if the spec is invalid or asks for a delivery the job cannot give
   * @throws IllegalArgumentException if the override is below 1 or above maxParallelism
   */
  public static ExecutionPlan plan(JobSpec spec, Integer parallelismOverride) {
    return plan(spec, parallelismOverride, Map.of());
  }

  /**
   * The plan of {@code spec} with some stages at a parallelism of their own.
   *
   * @param stageParallelism by the id of a stage's first operator (its {@link #head}), the
   *     parallelism that stage runs at instead of the job's; an id that heads no stage of this spec
   *     (the spec changed) is ignored, and a global window's stage stays at 1
   * @throws IllegalArgumentException if an override lies outside [1, maxParallelism]
   * @see #plan(JobSpec, Integer)
   */
  public static ExecutionPlan plan(JobSpec spec, Integer parallelismOverride, Map<String, Integer> stageParallelism) {
    JobSpec effective = spec;
    if (parallelismOverride != null) {
      effective = withParallelism(spec, parallelismOverride);
    }
    for (Map.Entry<String, Integer> e : stageParallelism.entrySet()) {
      if (e.getValue() < 1 || e.getValue() > effective.effectiveMaxParallelism()) {
        throw new IllegalArgumentException("parallelism " + e.getValue() + " of stage '" + e.getKey()
            + "' must be between 1 and maxParallelism (" + effective.effectiveMaxParallelism() + ")");
      }
    }
    SpecValidator.check(effective);
    checkDelivery(effective);
    return new Planner(effective, Map.copyOf(stageParallelism)).build();
  }

  /** The id a stage's own parallelism is kept under: its first operator's (a source, or the operator after an exchange). */
  public static String head(StagePlan stage) {
    return stage.operators().get(0).id();
  }

  /**
   * Whether {@code stage} always runs at parallelism 1: it begins with a window, aggregate or top-N
   * without keys (one global key or partition). A stage that only ends with one, chained after its
   * input, is not: its input can be rescaled, and the global operator then heads a stage of its own.
   */
  public static boolean runsAtOneOnly(StagePlan stage) {
    return isGlobal(stage.operators().get(0));
  }

  /**
   * The stages of {@code plan} that would run in another stage's task if that ran at 1, by the head
   * of each, the head of the stage it would join: a stage that {@link #runsAtOneOnly} fed by one
   * stage that now runs at more. Whether it would join is asked of the plan {@code atOne} gives for
   * that stage at 1 (the planner's own rule: not, for example, with unaligned checkpoints); a stage
   * that cannot be planned at 1 is left out.
   *
   * @param atOne the plan with the stage of the given head at parallelism 1
   */
  public static Map<String, String> joinsAtOne(ExecutionPlan plan,
      java.util.function.Function<String, ExecutionPlan> atOne) {
    Map<String, String> joins = new LinkedHashMap<>();
    for (StagePlan stage : plan.stages()) {
      List<Integer> inputs = plan.inputsOf(stage.id()).stream().map(EdgePlan::fromStage).distinct().toList();
      if (!runsAtOneOnly(stage) || inputs.size() != 1) {
        continue;
      }
      StagePlan from = plan.stage(inputs.get(0));
      if (from.parallelism() == 1) {
        continue; // joined already
      }
      String head = head(stage);
      String input = head(from);
      try {
        ExecutionPlan probe = atOne.apply(input);
        if (probe.stageOf(head).orElseThrow().id() == probe.stageOf(input).orElseThrow().id()) {
          joins.put(head, input);
        }
      } catch (RuntimeException e) {
        // not plannable at 1 (the spec's bounds): the autoscaler will not go there either
      }
    }
    return Map.copyOf(joins);
  }

  private static JobSpec withParallelism(JobSpec spec, int p) {
    JobSpec widened = spec.withParallelism(spec.parallelism().withInitial(p));
    if (p < 1 || p > widened.effectiveMaxParallelism()) {
      throw new IllegalArgumentException("parallelism override " + p + " must be between 1 and maxParallelism ("
          + widened.effectiveMaxParallelism() + ")");
    }
    return widened;
  }

  private static void checkDelivery(JobSpec spec) {
    List<SpecError> errors = DeliveryChecks.check(spec);
    if (!errors.isEmpty()) {
      throw new InvalidSpecException(errors);
    }
  }

  private ExecutionPlan build() {
    for (OperatorSpec op : spec.operators()) {
      Set<String> producers = new LinkedHashSet<>();
      for (String input : op.inputNames()) {
        producers.add(graph.resolve(input).nodeId());
      }
      for (String producer : producers) {
        consumers.computeIfAbsent(producer, k -> new ArrayList<>()).add(op);
      }
      unplacedProducers.put(op.id(), producers.size());
    }
    for (SinkSpec sink : spec.sinks().values()) {
      consumers.computeIfAbsent(graph.resolve(sink.input()).nodeId(), k -> new ArrayList<>()).add(sink);
    }
    for (SourceSpec source : spec.sources().values()) {
      StageBuilder stage = newStage(stageParallelism.getOrDefault(source.id(), parallelism));
      stage.add(OperatorPlans.source(source));
      stageOf.put(source.id(), stage);
      visitConsumers(source.id());
    }
    List<StagePlan> plans = stages.stream().map(StageBuilder::build).toList();
    return new ExecutionPlan(spec.name(), spec.effectiveMaxParallelism(), spec.state().backend(), plans, edges);
  }

  private void visitConsumers(String producerId) {
    for (Object consumer : consumers.getOrDefault(producerId, List.of())) {
      if (consumer instanceof OperatorSpec op) {
        if (unplacedProducers.merge(op.id(), -1, Integer::sum) > 0) {
          continue; // placed when its last input is
        }
        if (op.inputNames().size() > 1) {
          placeMultiInput(op);
        } else {
          List<String> keys = op.topN() != null ? op.topN().partitionBy() : op.keyBy();
          OperatorPlan plan = OperatorPlans.operator(op, graph.upsertKey(op.input()));
          place(op.id(), op.input(), plan, keys, aggregates(op), isGlobal(plan));
        }
        visitConsumers(op.id());
      } else if (consumer instanceof SinkSpec sink) {
        place(sink.id(), sink.input(), OperatorPlans.sink(sink, graph.upsertKey(sink.input())), null, false, false);
      }
    }
  }

  /** Whether {@code op} aggregates, per window or not: its input is hashed on its keys (maybe none). */
  private static boolean aggregates(OperatorSpec op) {
    return op.aggregate() != null;
  }

  /**
   * Whether {@code op} aggregates without keys (one global window or group), or ranks one global
   * partition: at parallelism 1.
   */
  private static boolean isGlobal(OperatorPlan op) {
    return op instanceof WindowAggregatePlan w && w.keyBy().isEmpty()
        || op instanceof GroupAggregatePlan g && g.keyBy().isEmpty()
        || op instanceof TopNPlan t && t.partitionBy().isEmpty();
  }

  private void place(String id, String input, OperatorPlan plan, List<String> keyBy, boolean aggregates,
      boolean global) {
    SpecGraph.Producer from = graph.resolve(input);
    StageBuilder fromStage = stageOf.get(from.nodeId());
    boolean hash = keyBy != null || aggregates;
    int p = global ? 1 : hash ? stageParallelism.getOrDefault(id, parallelism) : fromStage.parallelism();
    StageBuilder stage;
    if ((!hash || global && chainsGlobal(fromStage)) && p == fromStage.parallelism()) {
      stage = fromStage;
      stage.link(new ChainLink(from.nodeId(), from.port(), id));
    } else {
      stage = newStage(p);
      Partitioning partitioning = hash ? Partitioning.HASH : Partitioning.REBALANCE;
      List<String> keys = keyBy == null ? List.of() : keyBy;
      edges.add(new EdgePlan(fromStage.id(), from.nodeId(), from.port(), stage.id(), id, partitioning, keys));
    }
    stage.add(plan);
    stageOf.put(id, stage);
  }

  /**
   * Whether a global operator (at parallelism 1) joins {@code input}'s stage: when that runs at 1
   * too, the exchange between them would carry every record from one thread to another for nothing
   * but serializing it, so the operator is chained. Not with unaligned checkpoints: records in flight
   * on an exchange are logged per chain head, and a rescale of the input that made it a head again
   * (or no longer one) would leave them with nobody to replay them.
   */
  private boolean chainsGlobal(StageBuilder input) {
    return input.parallelism() == 1 && (spec.checkpoints() == null || !spec.checkpoints().unaligned());
  }

  /** An operator with several inputs: a stage of its own, one exchange per input into its index. */
  private void placeMultiInput(OperatorSpec op) {
    boolean hash = op.join() != null || op.keyBy() != null || aggregates(op);
    OperatorPlan plan = OperatorPlans.operator(op);
    int p = isGlobal(plan) ? 1 : stageParallelism.getOrDefault(op.id(), parallelism);
    StageBuilder stage = newStage(p);
    List<String> inputs = op.inputNames();
    for (int k = 0; k < inputs.size(); k++) {
      SpecGraph.Producer from = graph.resolve(inputs.get(k));
      StageBuilder fromStage = stageOf.get(from.nodeId());
      Partitioning partitioning = hash ? Partitioning.HASH
          : fromStage.parallelism() == p ? Partitioning.FORWARD : Partitioning.REBALANCE;
      List<String> keys = op.join() != null ? (k == 0 ? op.join().leftKeys() : op.join().rightKeys())
          : op.keyBy() == null ? List.of() : op.keyBy();
      edges.add(new EdgePlan(fromStage.id(), from.nodeId(), from.port(), stage.id(), op.id(), partitioning, keys, k));
    }
    stage.add(plan);
    stageOf.put(op.id(), stage);
  }

  private StageBuilder newStage(int p) {
    StageBuilder stage = new StageBuilder(stages.size(), p);
    stages.add(stage);
    return stage;
  }
}
