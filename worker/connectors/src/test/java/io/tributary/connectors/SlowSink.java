package io.tributary.connectors;

import io.tributary.connect.SinkConnector;
import io.tributary.connect.SinkWriter;
import io.tributary.stream.Record;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A sink that takes {@code micros} per record on top of the sink it wraps, which does the rest
 * (commits, recovery): a job writing to it is backpressured, for tests and benchmarks of checkpoints
 * under backpressure.
 */
public record SlowSink(SinkConnector sink, long micros) implements SinkConnector {
  @Override
  public SinkWriter open(int subtaskIndex, int parallelism) {
    return slow(sink.open(subtaskIndex, parallelism));
  }

  @Override
  public SinkWriter open(int subtaskIndex, int parallelism, long attempt) {
    return slow(sink.open(subtaskIndex, parallelism, attempt));
  }

  @Override
  public void commit(List<String> committables) {
    sink.commit(committables);
  }

  @Override
  public void recover(List<String> committables, int maxPreviousParallelism, long attempt) {
    sink.recover(committables, maxPreviousParallelism, attempt);
  }

  @Override
  public void close() {
    sink.close();
  }

  private SinkWriter slow(SinkWriter w) {
    long nanos = TimeUnit.MICROSECONDS.toNanos(micros);
    return new SinkWriter() {
      @Override
      public void write(Record record) {
        LockSupport.parkNanos(nanos);
        w.write(record);
      }

      @Override
      public void commit() {
        w.commit();
      }

      @Override
      public String preCommit(long checkpointId) {
        return w.preCommit(checkpointId);
      }

      @Override
      public void close() {
        w.close();
      }
    };
  }
}
