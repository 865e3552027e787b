package io.tributary.plan;

import java.util.Map;

/**
 * A source.
 *
 * @param type {@code file}, {@code datagen}, {@code nexmark} or {@code kafka}
 * @param format record format ({@code json})
 * @param eventTime how to take event time and make watermarks; null: records carry no event time
 * @param maxRecordsPerSecond throttle for the whole source (all subtasks together); 0 = unlimited
 * @param deadLetterOutput side output name for malformed records; null: they are only counted
 * @param properties the type-specific settings exactly as written in the spec (JSON values:
 *     String, Long, Double, Boolean, List, Map). See the connectors for the keys each type reads.
 */
public record SourcePlan(
    String id, String type, String format, EventTimePlan eventTime, double maxRecordsPerSecond,
    String deadLetterOutput, Map<String, Object> properties) implements OperatorPlan {
  public SourcePlan {
    properties = Map.copyOf(properties);
  }
}
