package io.tributary.scheduler.observe;

import java.time.Instant;

/**
 * One operator of a job's metrics (schema {@code OperatorMetrics}): rates and counts summed over
 * its subtasks, the watermark and the times the worst of them. An operator shares its task's
 * thread with the operators chained to it, so busy and backpressured times are its tasks'.
 *
 * @param recordsOutPerSecond records emitted to its main output; for a sink, records written
 * @param watermark the lowest watermark its running subtasks applied, or null (see {@link
 *     JobMetricsView#watermark()})
 * @param stateSizeBytes the size of its keyed state in the job's last checkpoint this process
 *     completed, over its subtasks; null for an operator without keyed state or before a checkpoint
 * @param lastCheckpointDurationMillis in that checkpoint, the time from its trigger until the last of
 *     the operator's subtasks acknowledged it (barrier aligned, snapshot taken and uploaded); null
 *     before a checkpoint
 */
public record OperatorMetricsView(String operatorId, int stageId, int parallelism, double recordsInPerSecond,
    double recordsOutPerSecond, Instant watermark, Long watermarkLagMillis, int busyTimeMsPerSecond,
    int backpressuredTimeMsPerSecond, long lateRecordsDropped, long malformedRecords, Long stateSizeBytes,
    Long lastCheckpointDurationMillis) {

  /** These figures with the operator's state size and checkpoint duration in the last checkpoint. */
  public OperatorMetricsView withCheckpoint(Long stateBytes, Long durationMillis) {
    return new OperatorMetricsView(operatorId, stageId, parallelism, recordsInPerSecond, recordsOutPerSecond,
        watermark, watermarkLagMillis, busyTimeMsPerSecond, backpressuredTimeMsPerSecond, lateRecordsDropped,
        malformedRecords, stateBytes, durationMillis);
  }
}
