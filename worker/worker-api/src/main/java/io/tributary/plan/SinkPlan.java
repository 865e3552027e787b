package io.tributary.plan;

import java.util.List;
import java.util.Map;

/**
 * A sink.
 *
 * @param type {@code file}, {@code kafka}, {@code stdout} or {@code blackhole}
 * @param format record format ({@code json})
 * @param properties the type-specific settings exactly as written in the spec
 * @param upsertKey null when the sink's input is append-only; when it is an upsert stream (see
 *     {@link io.tributary.stream.Changelog}), the fields that identify a result: a kafka sink keys
 *     its messages by them, a file sink writes the changelog as it is
 */
public record SinkPlan(String id, String type, String format, Map<String, Object> properties, List<String> upsertKey)
    implements OperatorPlan {
  public SinkPlan {
    properties = Map.copyOf(properties);
    upsertKey = upsertKey == null ? null : List.copyOf(upsertKey);
  }

  /** A sink of an append-only stream. */
  public SinkPlan(String id, String type, String format, Map<String, Object> properties) {
    this(id, type, format, properties, null);
  }
}
