package io.tributary.worker.window;

import io.tributary.plan.WindowPlan;
import io.tributary.stream.Record;
import io.tributary.stream.Schema;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Assigns records to windows without aggregating them (Flink SQL's {@code TUMBLE}, {@code HOP} and
 * {@code CUMULATE} table-valued functions): a record becomes one record per window that contains
 * its timestamp, in order of window start then end, each with {@code window_start} and {@code
 * window_end} after its fields (replacing fields of those names) and the record's own timestamp.
 * Stateless. Output schemas are cached per input schema; not thread-safe.
 */
public final class WindowAssignment {
  private final WindowAssigner assigner;
  private Schema lastIn;
  private Schema lastOut;
  private int[] from;

  /** @throws IllegalArgumentException for a session window (sessions are known only when they close) */
  public WindowAssignment(WindowPlan window) {
    this.assigner = WindowAssigner.of(window);
    if (assigner == null) {
      throw new IllegalArgumentException("a session window cannot be assigned without an aggregate");
    }
  }

  /**
   * Sends {@code record}'s windowed copies to {@code out}; false (sending nothing) when it has no
   * timestamp.
   */
  public boolean assign(Record record, Consumer<Record> out) {
    long ts = record.timestamp();
    if (ts == Record.NO_TIMESTAMP) {
      return false;
    }
    TimeWindow[] windows = assigner.assign(ts);
    for (int i = windows.length - 1; i >= 0; i--) { // the assigner gives the one ending last first
      out.accept(windowed(record, windows[i]));
    }
    return true;
  }

  private Record windowed(Record record, TimeWindow w) {
    if (record.schema() != lastIn) {
      List<String> names = new ArrayList<>();
      List<Integer> positions = new ArrayList<>();
      for (int i = 0; i < record.schema().size(); i++) {
        String name = record.schema().name(i);
        if (!name.equals(WindowResults.WINDOW_START) && !name.equals(WindowResults.WINDOW_END)) {
          names.add(name);
          positions.add(i);
        }
      }
      names.add(WindowResults.WINDOW_START);
      names.add(WindowResults.WINDOW_END);
      lastOut = Schema.of(names);
      from = positions.stream().mapToInt(Integer::intValue).toArray();
      lastIn = record.schema();
    }
    Object[] values = new Object[from.length + 2];
    for (int i = 0; i < from.length; i++) {
      values[i] = record.values()[from[i]];
    }
    values[from.length] = w.start();
    values[from.length + 1] = w.end();
    return new Record(lastOut, values, record.timestamp());
  }
}
