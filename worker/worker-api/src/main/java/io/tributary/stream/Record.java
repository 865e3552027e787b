package io.tributary.stream;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A data record: field values by position in {@code schema}, and its event timestamp (epoch ms,
 * {@link #NO_TIMESTAMP} when it has none).
 *
 * <p>Values are Long, Double, String, Boolean, null, or (passed through untouched) nested JSON as
 * {@code Map}/{@code List}. The values array is owned by the record: do not change it after
 * construction.
 */
public record Record(Schema schema, Object[] values, long timestamp) implements StreamElement {
  public static final long NO_TIMESTAMP = Long.MIN_VALUE;

  public Record {
    if (values.length != schema.size()) {
      throw new IllegalArgumentException(
          "record has " + values.length + " values for schema " + schema);
    }
  }

  /** The value of field {@code name}, or null when absent. */
  public Object get(String name) {
    int i = schema.indexOf(name);
    return i < 0 ? null : values[i];
  }

  public Object get(int index) {
    return values[index];
  }

  public Record withTimestamp(long ts) {
    return new Record(schema, values, ts);
  }

  /** The fields as an ordered map (for sinks and tests). */
  public Map<String, Object> asMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    for (int i = 0; i < values.length; i++) {
      m.put(schema.name(i), values[i]);
    }
    return m;
  }

  /** A record from an ordered map of fields. */
  public static Record of(Map<String, ?> fields, long timestamp) {
    return new Record(Schema.of(fields.keySet().toArray(new String[0])), fields.values().toArray(), timestamp);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Record r
        && r.schema == schema
        && r.timestamp == timestamp
        && Arrays.equals(r.values, values);
  }

  @Override
  public int hashCode() {
    return 31 * (31 * schema.hashCode() + Arrays.hashCode(values)) + Long.hashCode(timestamp);
  }

  @Override
  public String toString() {
    return asMap() + (timestamp == NO_TIMESTAMP ? "" : "@" + timestamp);
  }
}
