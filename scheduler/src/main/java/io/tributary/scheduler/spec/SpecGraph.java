package io.tributary.scheduler.spec;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The names a spec's {@code input} fields may refer to, and who produces each: a source or an
 * operator on its main output, or on a side output (a source's dead-letter output, a window's late
 * output). Sinks produce nothing. When a name is declared twice the first declaration wins (the
 * validator reports the duplicate).
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

  private SpecGraph(Map<String, Producer> producers) {
    this.producers = Collections.unmodifiableMap(producers);
  }

  /** The graph of {@code spec}; null parts are skipped. */
  public static SpecGraph of(JobSpec spec) {
    Map<String, Producer> producers = new LinkedHashMap<>();
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
      String late = op.window() == null ? null : op.window().lateOutput();
      if (late != null) {
        producers.putIfAbsent(late, new Producer(op.id(), late));
      }
    }
    return new SpecGraph(producers);
  }

  /** The producer of {@code input}, or null if no source, operator or side output has that name. */
  public Producer resolve(String input) {
    return input == null ? null : producers.get(input);
  }

  /** Every name an input may refer to, in declaration order. */
  public Set<String> names() {
    return producers.keySet();
  }
}
