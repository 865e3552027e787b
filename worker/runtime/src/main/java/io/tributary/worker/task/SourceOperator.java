package io.tributary.worker.task;

import io.tributary.stream.Record;
import io.tributary.worker.operator.Operator;
import io.tributary.worker.operator.Output;

/** The head of a source stage: passes what the splits produce to the chained operators. */
final class SourceOperator implements Operator {
  @Override
  public void processElement(Record record, Output out) {
    out.emit(record);
  }
}
