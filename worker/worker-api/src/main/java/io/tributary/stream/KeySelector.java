package io.tributary.stream;

import io.tributary.state.Key;
import java.util.List;

/**
 * Extracts the {@link Key} of a record from named fields. Field positions are cached per schema
 * (schemas are interned), so the usual case is one reference comparison per record. A missing
 * field is a null key component. Not thread-safe: one instance per task.
 */
public final class KeySelector {
  private static final Key EMPTY = Key.of();

  private final String[] fields;
  private Schema cachedSchema;
  private int[] cachedIndexes;

  public KeySelector(List<String> fields) {
    this.fields = fields.toArray(new String[0]);
  }

  public List<String> fields() {
    return List.of(fields);
  }

  public Key keyOf(Record record) {
    if (fields.length == 0) {
      return EMPTY;
    }
    Schema schema = record.schema();
    if (schema != cachedSchema) {
      int[] idx = new int[fields.length];
      for (int i = 0; i < fields.length; i++) {
        idx[i] = schema.indexOf(fields[i]);
      }
      cachedIndexes = idx;
      cachedSchema = schema;
    }
    Object[] values = new Object[fields.length];
    for (int i = 0; i < fields.length; i++) {
      int j = cachedIndexes[i];
      values[i] = j < 0 ? null : record.values()[j];
    }
    return Key.of(values);
  }
}
