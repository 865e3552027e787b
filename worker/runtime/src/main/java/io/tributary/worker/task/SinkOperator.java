package io.tributary.worker.task;

import io.tributary.connect.SinkWriter;
import io.tributary.stream.Record;
import io.tributary.worker.operator.Operator;
import io.tributary.worker.operator.Output;

/** Hands records to a sink writer; commits when every input has ended. */
final class SinkOperator implements Operator {
  private final SinkWriter writer;
  private long written;

  SinkOperator(SinkWriter writer) {
    this.writer = writer;
  }

  @Override
  public void processElement(Record record, Output out) {
    writer.write(record);
    written++;
  }

  @Override
  public void finish(Output out) {
    writer.commit();
  }

  @Override
  public void close() {
    writer.close();
  }

  long written() {
    return written;
  }
}
