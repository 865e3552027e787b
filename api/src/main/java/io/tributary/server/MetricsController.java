package io.tributary.server;

import io.micronaut.http.annotation.Controller;
import io.tributary.api.generated.AbstractMetricsController;
import io.tributary.api.generated.model.JobMetrics;
import io.tributary.api.generated.model.OperatorMetrics;
import io.tributary.scheduler.lifecycle.JobManager;
import io.tributary.scheduler.observe.JobMetricsView;
import io.tributary.scheduler.observe.OperatorMetricsView;
import io.tributary.scheduler.lifecycle.TokenStore.Role;
import reactor.core.publisher.Mono;

/** Per-job and per-operator metrics as JSON. */
@Controller
class MetricsController extends AbstractMetricsController {
  private final JobManager jobs;
  private final Access access;

  MetricsController(JobManager jobs, Access access) {
    this.jobs = jobs;
    this.access = access;
  }

  @Override
  public Mono<JobMetrics> getJobMetrics(String project, String name) {
    access.require(project, Role.VIEWER);
    return Blocking.call(() -> metrics(jobs.metrics(project, name)));
  }

  static JobMetrics metrics(JobMetricsView v) {
    JobMetrics m = new JobMetrics(ApiModels.time(v.at()), v.recordsInPerSecond(), v.recordsOutPerSecond(),
        v.busyTimeMsPerSecond(), v.backpressuredTimeMsPerSecond(), v.restarts(), v.lateRecordsDropped(),
        v.malformedRecords(), v.operators().stream().map(MetricsController::operator).toList());
    m.watermark(ApiModels.time(v.watermark()));
    m.watermarkLagMillis(v.watermarkLagMillis());
    m.lastCheckpointDurationMillis(v.lastCheckpointDurationMillis());
    m.lastCheckpointSizeBytes(v.lastCheckpointSizeBytes());
    return m;
  }

  private static OperatorMetrics operator(OperatorMetricsView o) {
    OperatorMetrics m = new OperatorMetrics(o.operatorId(), o.stageId(), o.parallelism(), o.recordsInPerSecond(),
        o.recordsOutPerSecond(), o.busyTimeMsPerSecond(), o.backpressuredTimeMsPerSecond());
    m.watermark(ApiModels.time(o.watermark()));
    m.watermarkLagMillis(o.watermarkLagMillis());
    m.lateRecordsDropped(o.lateRecordsDropped());
    m.malformedRecords(o.malformedRecords());
    m.stateSizeBytes(o.stateSizeBytes());
    m.lastCheckpointDurationMillis(o.lastCheckpointDurationMillis());
    return m;
  }
}
