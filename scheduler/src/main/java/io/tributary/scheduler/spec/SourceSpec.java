package io.tributary.scheduler.spec;

import java.util.Map;

/**
 * A source of the spec. After a successful validation, {@code id}, {@code type} and
 * {@code format} are set; other fields may be null when not written.
 *
 * @param id the key under {@code sources}
 * @param type {@code file}, {@code datagen}, {@code nexmark} or {@code kafka}
 * @param format record format, {@code json}
 * @param eventTime null: records carry no event time
 * @param maxRecordsPerSecond throttle for the whole source; null: unlimited
 * @param deadLetterOutput side output name for malformed records; null: none
 * @param properties the type-specific settings as written (plain JSON values, ordered)
 */
public record SourceSpec(
    String id, String type, String format, EventTimeSpec eventTime, Double maxRecordsPerSecond,
    String deadLetterOutput, Map<String, Object> properties) {
  public SourceSpec {
    properties = Copies.map(properties == null ? Map.of() : properties);
  }
}
