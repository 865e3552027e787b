package io.tributary.boot;

import io.tributary.connect.ForwardingSplitReader;
import io.tributary.connect.SinkConnector;
import io.tributary.connect.SourceConnector;
import io.tributary.connect.SplitOutput;
import io.tributary.connect.SplitReader;
import io.tributary.plan.SinkPlan;
import io.tributary.plan.SourcePlan;
import io.tributary.worker.task.ConnectorFactory;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The standard connectors, except that a source split that reached its end reports "nothing
 * available yet" until {@link #release()}: a bounded job keeps running, whatever the machine's
 * speed, until the test lets it end. Shared by every run of every manager that uses it.
 */
final class HeldSources implements ConnectorFactory {
  private final ConnectorFactory sources = ConnectorFactory.standard().withSourceReaders(this::held);
  private final AtomicBoolean held = new AtomicBoolean(true);

  /** From now on, sources end when their input does. Any thread. */
  void release() {
    held.set(false);
  }

  @Override
  public SourceConnector source(SourcePlan plan) {
    return sources.source(plan);
  }

  @Override
  public SinkConnector sink(SinkPlan plan) {
    return sources.sink(plan);
  }

  private SplitReader held(SplitReader reader) {
    return new ForwardingSplitReader(reader) {
      @Override
      public int read(SplitOutput out, int max) {
        int n = reader.read(out, max);
        return n == END && held.get() ? 0 : n;
      }
    };
  }
}
