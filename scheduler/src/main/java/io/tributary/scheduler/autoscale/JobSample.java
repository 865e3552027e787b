package io.tributary.scheduler.autoscale;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every stage of one job around one instant, and which stage feeds which. Stages without an
 * incoming edge are the job's sources.
 *
 * @param stages one per stage, ids unique
 * @param edges between stages of {@code stages}, without cycles
 * @param joinsAtOne by stage id, the stage whose task it would run in if that stage ran at 1 (a
 *     global window, aggregate or top-N after a stage that now runs at more): a scale-down of that
 *     stage to 1 takes on its work too
 * @param slots the most tasks the job's worker pool can ever run (one per slot; a stage runs a task
 *     per subtask), or null when it can grow (external workers, Kubernetes pods)
 */
public record JobSample(List<StageSample> stages, List<Edge> edges, Map<Integer, Integer> joinsAtOne, Integer slots) {
  /** Records flow from stage {@code from} to stage {@code to}. */
  public record Edge(int from, int to) {}

  /** A job none of whose stages would run in another's task at 1. */
  public JobSample(List<StageSample> stages, List<Edge> edges) {
    this(stages, edges, Map.of());
  }

  /** A job on a pool that can grow. */
  public JobSample(List<StageSample> stages, List<Edge> edges, Map<Integer, Integer> joinsAtOne) {
    this(stages, edges, joinsAtOne, null);
  }

  /** This sample of a job on a pool of {@code slots} slots in all. */
  public JobSample withSlots(int slots) {
    return new JobSample(stages, edges, joinsAtOne, slots);
  }

  /**
   * @throws IllegalArgumentException for a duplicate stage id, an edge or a join naming an unknown
   *     stage, or a cycle
   */
  public JobSample {
    stages = List.copyOf(stages);
    edges = List.copyOf(edges);
    joinsAtOne = Map.copyOf(joinsAtOne);
    Map<Integer, StageSample> byId = new HashMap<>();
    for (StageSample s : stages) {
      if (byId.put(s.stageId(), s) != null) {
        throw new IllegalArgumentException("stage id " + s.stageId() + " appears twice");
      }
    }
    for (Edge e : edges) {
      if (!byId.containsKey(e.from()) || !byId.containsKey(e.to())) {
        throw new IllegalArgumentException("edge " + e.from() + " -> " + e.to() + " names an unknown stage");
      }
    }
    joinsAtOne.forEach((stage, into) -> {
      if (!byId.containsKey(stage) || !byId.containsKey(into)) {
        throw new IllegalArgumentException("stage " + stage + " joining " + into + " at 1 names an unknown stage");
      }
    });
    if (order(stages, edges).size() != stages.size()) {
      throw new IllegalArgumentException("the edges form a cycle");
    }
    if (slots != null && slots < 1) {
      throw new IllegalArgumentException("a pool of " + slots + " slots");
    }
  }

  /** The stages, every one after all that feed it. */
  public List<StageSample> topologicalOrder() {
    return order(stages, edges);
  }

  /** The edges into {@code stageId}. */
  public List<Edge> inputs(int stageId) {
    return edges.stream().filter(e -> e.to() == stageId).toList();
  }

  /** The stage with {@code stageId}, or null. */
  public StageSample stage(int stageId) {
    for (StageSample s : stages) {
      if (s.stageId() == stageId) {
        return s;
      }
    }
    return null;
  }

  private static List<StageSample> order(List<StageSample> stages, List<Edge> edges) {
    Map<Integer, Integer> indegree = new LinkedHashMap<>();
    Map<Integer, StageSample> byId = new HashMap<>();
    for (StageSample s : stages) {
      indegree.put(s.stageId(), 0);
      byId.put(s.stageId(), s);
    }
    for (Edge e : edges) {
      indegree.merge(e.to(), 1, Integer::sum);
    }
    Deque<Integer> ready = new ArrayDeque<>();
    indegree.forEach((id, n) -> {
      if (n == 0) {
        ready.add(id);
      }
    });
    List<StageSample> out = new ArrayList<>();
    while (!ready.isEmpty()) {
      int id = ready.poll();
      out.add(byId.get(id));
      for (Edge e : edges) {
        if (e.from() == id && indegree.merge(e.to(), -1, Integer::sum) == 0) {
          ready.add(e.to());
        }
      }
    }
    return out;
  }
}
