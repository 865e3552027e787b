package io.tributary.connectors.json;

import io.tributary.stream.Changelog;
import io.tributary.stream.Record;
import io.tributary.stream.Schema;
import java.util.ArrayList;
import java.util.List;

/**
 * Rewrites records for sinks of changelogs ({@link Changelog}): an append-only record as an
 * insert, an upsert stream's record without its {@code _op} field. Output schemas are cached per
 * input schema (schemas are interned); not thread-safe: one instance per writer.
 */
public final class ChangelogRows {
  private Schema lastIn;
  private Schema lastOut;
  private int opIndex;

  /** The record with {@code _op: insert} in front of its fields: an append-only record in changelog form. */
  public Record inserted(Record record) {
    if (record.schema() != lastIn) {
      List<String> names = new ArrayList<>();
      names.add(Changelog.FIELD);
      names.addAll(record.schema().names());
      lastOut = Schema.of(names);
      lastIn = record.schema();
    }
    Object[] values = new Object[record.values().length + 1];
    values[0] = Changelog.INSERT;
    System.arraycopy(record.values(), 0, values, 1, record.values().length);
    return new Record(lastOut, values, record.timestamp());
  }

  /** The record without its {@code _op} field (as it is when it has none). */
  public Record withoutOp(Record record) {
    if (record.schema() != lastIn) {
      opIndex = record.schema().indexOf(Changelog.FIELD);
      List<String> names = new ArrayList<>(record.schema().names());
      if (opIndex >= 0) {
        names.remove(opIndex);
      }
      lastOut = Schema.of(names);
      lastIn = record.schema();
    }
    if (opIndex < 0) {
      return record;
    }
    Object[] values = new Object[record.values().length - 1];
    System.arraycopy(record.values(), 0, values, 0, opIndex);
    System.arraycopy(record.values(), opIndex + 1, values, opIndex, values.length - opIndex);
    return new Record(lastOut, values, record.timestamp());
  }

  /** Whether the record says its key has no result any more. */
  public static boolean isDelete(Record record) {
    return Changelog.DELETE.equals(record.get(Changelog.FIELD));
  }
}
