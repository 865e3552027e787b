package io.tributary.plan;

import java.util.Map;

/**
 * A sink.
 *
 * @param type {@code file}, {@code kafka}, {@code stdout} or {@code blackhole}
 * @param format record format ({@code json})
 * @param properties the type-specific settings exactly as written in the spec
 */
public record SinkPlan(String id, String type, String format, Map<String, Object> properties)
    implements OperatorPlan {
  public SinkPlan {
    properties = Map.copyOf(properties);
  }
}
