package io.tributary.bench.flink;

import java.util.concurrent.atomic.LongAdder;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;

/**
 * Discards records and counts them in this JVM, like Tributary's blackhole sink: the count of a
 * run is read once the job ended (its tasks run in this process, on a MiniCluster).
 */
final class CountingSink<T> implements Sink<T> {
  private static final long serialVersionUID = 1L;
  private static final LongAdder COUNT = new LongAdder();

  /** The records written since the last {@link #reset}. */
  static long count() {
    return COUNT.sum();
  }

  static void reset() {
    COUNT.reset();
  }

  @Override
  public SinkWriter<T> createWriter(WriterInitContext context) {
    return new SinkWriter<>() {
      @Override
      public void write(T element, Context context) {
        COUNT.increment();
      }

      @Override
      public void flush(boolean endOfInput) {}

      @Override
      public void close() {}
    };
  }
}
