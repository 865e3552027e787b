package io.tributary.worker.pool;

import io.tributary.connect.SinkConnector;
import io.tributary.connect.SinkWriter;
import io.tributary.connect.SourceConnector;
import io.tributary.plan.SinkPlan;
import io.tributary.plan.SourcePlan;
import io.tributary.stream.Record;
import io.tributary.worker.task.ConnectorFactory;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * Connectors for runtime tests: standard ones, plus sources and sinks registered by type name
 * ({@code test-...}) that a test provides.
 */
final class TestConnectors implements ConnectorFactory {
  private final Map<String, SourceConnector> sources = new ConcurrentHashMap<>();
  private final Map<String, Consumer<Record>> sinks = new ConcurrentHashMap<>();

  TestConnectors source(String type, SourceConnector connector) {
    sources.put(type, connector);
    return this;
  }

  /** A sink of type {@code type} that calls {@code onRecord} for each record (from task threads). */
  TestConnectors sink(String type, Consumer<Record> onRecord) {
    sinks.put(type, onRecord);
    return this;
  }

  /** A sink of type {@code type} that collects records into {@code into}. */
  TestConnectors collect(String type, List<Record> into) {
    return sink(type, into::add);
  }

  static List<Record> newCollection() {
    return new CopyOnWriteArrayList<>();
  }

  @Override
  public SourceConnector source(SourcePlan plan) {
    SourceConnector c = sources.get(plan.type());
    return c != null ? c : ConnectorFactory.standard().source(plan);
  }

  @Override
  public SinkConnector sink(SinkPlan plan) {
    Consumer<Record> c = sinks.get(plan.type());
    if (c == null) {
      return ConnectorFactory.standard().sink(plan);
    }
    return (subtask, parallelism) -> new SinkWriter() {
      @Override
      public void write(Record record) {
        c.accept(record);
      }

      @Override
      public void commit() {}

      @Override
      public void close() {}
    };
  }
}
