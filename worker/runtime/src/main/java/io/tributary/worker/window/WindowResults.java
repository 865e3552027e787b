package io.tributary.worker.window;

import io.tributary.state.Key;
import io.tributary.worker.aggregate.Accumulator;
import io.tributary.worker.aggregate.Aggregates;
import io.tributary.stream.Record;
import io.tributary.stream.Schema;
import java.util.ArrayList;
import java.util.List;

/**
 * Builds window result records: the key fields (named as in keyBy), {@code window_start},
 * {@code window_end}, the aggregates in declaration order, then {@code revision}; timestamped
 * {@code window_end - 1}.
 */
final class WindowResults {
  static final String WINDOW_START = "window_start";
  static final String WINDOW_END = "window_end";
  static final String REVISION = "revision";

  private final Schema schema;
  private final int keyFields;
  private final Aggregates aggregates;

  WindowResults(List<String> keyBy, List<String> aggregateNames, Aggregates aggregates) {
    List<String> names = new ArrayList<>(keyBy);
    names.add(WINDOW_START);
    names.add(WINDOW_END);
    names.addAll(aggregateNames);
    names.add(REVISION);
    this.schema = Schema.of(names);
    this.keyFields = keyBy.size();
    this.aggregates = aggregates;
  }

  Schema schema() {
    return schema;
  }

  /** The result of {@code window} for {@code key} at {@code acc}'s current revision. */
  Record result(Key key, TimeWindow window, Accumulator acc) {
    Object[] values = new Object[schema.size()];
    for (int i = 0; i < keyFields; i++) {
      values[i] = key.get(i);
    }
    values[keyFields] = window.start();
    values[keyFields + 1] = window.end();
    aggregates.results(acc, values, keyFields + 2);
    values[values.length - 1] = acc.revision;
    return new Record(schema, values, window.maxTimestamp());
  }
}
