package io.tributary.scheduler.spec;

import io.tributary.plan.TopNPlan;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The names a spec's {@code input} fields may refer to, and who produces each: a source or an
 * operator on its main output, or on a side output (a source's dead-letter output, a window's late
 * output); and which names are upsert streams. Sinks produce nothing. When a name is declared
 * twice the first declaration wins (the validator reports the duplicate).
 */
public final class SpecGraph {
  /**
   * The producer of a name.
   *
   * @param nodeId the source or operator id
   * @param port null for the main output, else the side output's name
   */
  public record Producer(String nodeId, String port) {}

  private final Map<String, Producer> producers;
  /** By operator id: the key of the upsert stream it produces (an aggregate without a window). */
  private final Map<String, List<String>> upsertKeys;

  private SpecGraph(Map<String, Producer> producers, Map<String, List<String>> upsertKeys) {
    this.producers = Collections.unmodifiableMap(producers);
    this.upsertKeys = Collections.unmodifiableMap(upsertKeys);
  }

  /** The graph of {@code spec}; null parts are skipped. */
  public static SpecGraph of(JobSpec spec) {
    Map<String, Producer> producers = new LinkedHashMap<>();
    Map<String, List<String>> upsertKeys = new LinkedHashMap<>();
    for (SourceSpec source : spec.sources().values()) {
      producers.putIfAbsent(source.id(), new Producer(source.id(), null));
      if (source.deadLetterOutput() != null) {
        producers.putIfAbsent(source.deadLetterOutput(), new Producer(source.id(), source.deadLetterOutput()));
      }
    }
    for (OperatorSpec op : spec.operators()) {
      if (op == null || op.id() == null) {
        continue;
      }
      producers.putIfAbsent(op.id(), new Producer(op.id(), null));
      if (op.aggregate() != null && op.window() == null) {
        upsertKeys.putIfAbsent(op.id(), op.keyBy() == null ? List.of() : op.keyBy());
      }
      TopNSpec top = op.topN();
      if (top != null && top.partitionBy() != null && !TopNPlan.perWindow(top.partitionBy())) {
        upsertKeys.putIfAbsent(op.id(), TopNPlan.upsertKey(top.partitionBy(), top.rankField()));
      }
      String late = op.window() == null ? null : op.window().lateOutput();
      if (late != null) {
        producers.putIfAbsent(late, new Producer(op.id(), late));
      }
    }
    return new SpecGraph(producers, upsertKeys);
  }

  /** The producer of {@code input}, or null if no source, operator or side output has that name. */
  public Producer resolve(String input) {
    return input == null ? null : producers.get(input);
  }

  /**
   * When {@code input} names an upsert stream (the results of an aggregate without a window, see
   * {@code io.tributary.stream.Changelog}): the fields that key it (empty: one global group).
   * Null for an append-only stream or an unknown name.
   */
  public List<String> upsertKey(String input) {
    Producer p = resolve(input);
    return p == null || p.port() != null ? null : upsertKeys.get(p.nodeId());
  }

  /** Every name an input may refer to, in declaration order. */
  public Set<String> names() {
    return producers.keySet();
  }
}
