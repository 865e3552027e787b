package io.tributary.scheduler.observe;

import java.time.Instant;
import java.util.List;

/**
 * A job's metrics as the API shows them (schema {@code JobMetrics}). Rates are averages over the
 * last sampling window (up to {@value JobMetricsTracker#WINDOW_SECONDS} s, sampled every second);
 * a job with no running task reports rates of 0 and no watermark. Counts are since the job was
 * created in this process (records dropped or malformed) or since it was created (restarts).
 *
 * @param at when the figures were sampled
 * @param watermark the lowest input watermark over the job's running tasks (idle ones aside); null
 *     before the first watermark, when the job does not run, or when its input has ended
 * @param watermarkLagMillis {@code at} minus the watermark; null when the watermark is
 * @param busyTimeMsPerSecond of the busiest operator, 0..1000
 * @param backpressuredTimeMsPerSecond of that same operator, 0..1000
 * @param lastCheckpointDurationMillis of the last checkpoint or savepoint this process completed,
 *     or null
 * @param lastCheckpointSizeBytes its full state size, or null
 * @param restarts automatic restarts after failures, since the job was created
 * @param operators in plan order
 */
public record JobMetricsView(Instant at, double recordsInPerSecond, double recordsOutPerSecond, Instant watermark,
    Long watermarkLagMillis, int busyTimeMsPerSecond, int backpressuredTimeMsPerSecond,
    Long lastCheckpointDurationMillis, Long lastCheckpointSizeBytes, long restarts, long lateRecordsDropped,
    long malformedRecords, List<OperatorMetricsView> operators) {
  public JobMetricsView {
    operators = List.copyOf(operators);
  }
}
