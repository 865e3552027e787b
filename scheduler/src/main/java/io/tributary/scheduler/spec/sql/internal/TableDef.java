package io.tributary.scheduler.spec.sql.internal;

import java.util.List;
import java.util.Map;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * A table a SQL job declares with CREATE TABLE: its columns, event time and connector options.
 * Whether it is a source or a sink follows from the statements that read or write it.
 *
 * @param name the table's name, which becomes its source's or sink's id
 * @param pos where the table's name is written
 * @param rowType the declared columns, in order
 * @param watermark null: the table declares no event time
 * @param options the {@code WITH} options in order, by key
 */
record TableDef(String name, SqlParserPos pos, RelDataType rowType, Watermark watermark, Map<String, Option> options) {
  /** The option that names the connector. */
  static final String CONNECTOR = "connector";

  /**
   * {@code WATERMARK FOR column AS column - INTERVAL ...}.
   *
   * @param column the event-time column
   * @param delayMillis how far the watermark lags the largest event time seen
   * @param pos where the watermark is declared
   */
  record Watermark(String column, long delayMillis, SqlParserPos pos) {}

  /**
   * One {@code 'key' = 'value'}.
   *
   * @param pos where its key is written
   */
  record Option(String key, String value, SqlParserPos pos) {}

  /** The connector's name: the {@code connector} option's value. */
  String connector() {
    Option o = options.get(CONNECTOR);
    return o == null ? null : o.value();
  }

  /** The declared column names, in order. */
  List<String> columns() {
    return rowType.getFieldNames();
  }

  /** The position of the event-time column among the columns, or -1. */
  int timeColumn() {
    return watermark == null ? -1 : columns().indexOf(watermark.column());
  }
}
