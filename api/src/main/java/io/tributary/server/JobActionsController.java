package io.tributary.server;

import io.micronaut.http.annotation.Controller;
import io.tributary.api.generated.AbstractJobActionsController;
import io.tributary.api.generated.model.Job;
import io.tributary.api.generated.model.RescaleRequest;
import io.tributary.api.generated.model.RestorePolicy;
import io.tributary.api.generated.model.StopRequest;
import io.tributary.scheduler.lifecycle.JobManager;
import io.tributary.scheduler.lifecycle.TokenStore.Role;
import reactor.core.publisher.Mono;

/** Stop, resume, rescale and restart a job. */
@Controller
class JobActionsController extends AbstractJobActionsController {
  private final JobManager jobs;
  private final Access access;
  private final Restores restores;

  JobActionsController(JobManager jobs, Access access, Restores restores) {
    this.jobs = jobs;
    this.access = access;
    this.restores = restores;
  }

  @Override
  public Mono<Job> stopJob(String project, String name, StopRequest body) {
    access.require(project, Role.EDITOR);
    ETags.accepted();
    boolean savepoint = body != null && Boolean.TRUE.equals(body.getSavepoint());
    return Blocking.call(() -> ApiModels.job(jobs.stop(project, name, savepoint)));
  }

  @Override
  public Mono<Job> resumeJob(String project, String name, RestorePolicy body) {
    access.require(project, Role.EDITOR);
    ETags.accepted();
    return Blocking.call(() -> ApiModels.job(jobs.resume(project, name,
        body == null ? null : restores.resolve(project, name, body, false))));
  }

  @Override
  public Mono<Job> rescaleJob(String project, String name, RescaleRequest body) {
    access.require(project, Role.EDITOR);
    ETags.accepted();
    java.util.Map<String, Integer> stages = body.getStages() == null ? java.util.Map.of() : body.getStages();
    return Blocking.call(() -> ApiModels.job(jobs.rescale(project, name, body.getParallelism(), stages)));
  }

  @Override
  public Mono<Job> restartJob(String project, String name) {
    access.require(project, Role.EDITOR);
    ETags.accepted();
    return Blocking.call(() -> ApiModels.job(jobs.restart(project, name)));
  }
}
