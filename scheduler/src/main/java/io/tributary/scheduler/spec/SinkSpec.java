package io.tributary.scheduler.spec;

import java.util.Map;

/**
 * A sink of the spec.
 *
 * @param id the key under {@code sinks}
 * @param input a source id, an operator id or a side output name
 * @param type {@code file}, {@code kafka}, {@code stdout} or {@code blackhole}
 * @param format record format, {@code json}
 * @param properties the type-specific settings as written (plain JSON values, ordered)
 */
public record SinkSpec(String id, String input, String type, String format, Map<String, Object> properties) {
  public SinkSpec {
    properties = Copies.map(properties == null ? Map.of() : properties);
  }
}
