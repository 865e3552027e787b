package io.tributary.run;

import io.tributary.connect.ForwardingSplitReader;
import io.tributary.connect.SinkConnector;
import io.tributary.connect.SourceConnector;
import io.tributary.connect.SplitOutput;
import io.tributary.connect.SplitReader;
import io.tributary.plan.SinkPlan;
import io.tributary.plan.SourcePlan;
import io.tributary.worker.task.ConnectorFactory;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The standard connectors, except that once {@linkplain #arm() armed} the next read of any source
 * split fails (once per arming), as a crashed reader would: a retryable, internal failure. So that
 * the failures come before the end whatever the machine's speed, a split that reached its end
 * reports "nothing available yet" instead until the planned number of failures happened (and
 * while ends are {@linkplain #holdEnds() held}).
 */
final class FailingSources implements ConnectorFactory {
  private final ConnectorFactory sources = ConnectorFactory.standard().withSourceReaders(this::failing);
  private final AtomicBoolean armed = new AtomicBoolean();
  private final AtomicInteger failures = new AtomicInteger();
  private final AtomicBoolean endsHeld = new AtomicBoolean();
  private final int planned;

  /** @param planned failures the test will arm: the sources do not end before they happened */
  FailingSources(int planned) {
    this.planned = planned;
  }

  /** The next split read fails. Any thread. */
  void arm() {
    armed.set(true);
  }

  /** Sources do not end until {@link #releaseEnds()}: the job runs until it is stopped. */
  void holdEnds() {
    endsHeld.set(true);
  }

  void releaseEnds() {
    endsHeld.set(false);
  }

  /** How many reads failed so far. */
  int failures() {
    return failures.get();
  }

  @Override
  public SourceConnector source(SourcePlan plan) {
    return sources.source(plan);
  }

  @Override
  public SinkConnector sink(SinkPlan plan) {
    return sources.sink(plan);
  }

  private SplitReader failing(SplitReader reader) {
    return new ForwardingSplitReader(reader) {
      @Override
      public int read(SplitOutput out, int max) {
        if (armed.compareAndSet(true, false)) {
          failures.incrementAndGet();
          throw new IllegalStateException("injected failure of a source reader");
        }
        int n = reader.read(out, max);
        return n == END && (failures.get() < planned || endsHeld.get()) ? 0 : n;
      }
    };
  }
}
