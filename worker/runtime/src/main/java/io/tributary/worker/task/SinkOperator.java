package io.tributary.worker.task;

import io.tributary.connect.SinkWriter;
import io.tributary.stream.Record;
import io.tributary.worker.operator.Operator;
import io.tributary.worker.operator.Output;

/**
 * Hands records to a sink writer. Without checkpoints it commits when every input has ended; with
 * checkpoints it pre-commits at each barrier and at the end, and the job commits once the
 * checkpoint covering the output completed (contract C10).
 */
final class SinkOperator implements Operator {
  private final SinkWriter writer;
  private final boolean twoPhase;
  private long written;
  private String finalCommittable;

  SinkOperator(SinkWriter writer, boolean twoPhase) {
    this.writer = writer;
    this.twoPhase = twoPhase;
  }

  @Override
  public void processElement(Record record, Output out) {
    writer.write(record);
    written++;
  }

  @Override
  public void finish(Output out) {
    if (twoPhase) {
      finalCommittable = writer.preCommit(Long.MAX_VALUE);
    } else {
      writer.commit();
    }
  }

  /** At a barrier: makes what was written durable, not yet visible. */
  String preCommit(long checkpointId) {
    return writer.preCommit(checkpointId);
  }

  /** What {@link #finish} pre-committed, or null. */
  String finalCommittable() {
    return finalCommittable;
  }

  @Override
  public void close() {
    writer.close();
  }

  long written() {
    return written;
  }
}
