package io.tributary.server;

import io.micronaut.http.HttpRequest;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.context.ServerRequestContext;
import io.tributary.api.generated.AbstractJobsController;
import io.tributary.api.generated.model.Job;
import io.tributary.api.generated.model.JobApply;
import io.tributary.api.generated.model.JobList;
import io.tributary.scheduler.lifecycle.DesiredState;
import io.tributary.scheduler.lifecycle.InvalidRequestException;
import io.tributary.scheduler.lifecycle.JobManager;
import io.tributary.scheduler.lifecycle.JobPage;
import io.tributary.scheduler.lifecycle.JobView;
import io.tributary.scheduler.lifecycle.TokenStore.Role;
import io.tributary.scheduler.master.RestorePolicy;
import reactor.core.publisher.Mono;

/** Apply (create or update), read, list and delete jobs. */
@Controller
class JobsController extends AbstractJobsController {
  /** Request attribute: the apply created the job (201 instead of 200). */
  static final String CREATED = "tributary.created";

  private final JobManager jobs;
  private final Access access;
  private final Restores restores;

  JobsController(JobManager jobs, Access access, Restores restores) {
    this.jobs = jobs;
    this.access = access;
    this.restores = restores;
  }

  @Override
  public Mono<Job> applyJob(String project, String name, JobApply body, String ifMatch, String ifNoneMatch) {
    access.require(project, Role.EDITOR);
    HttpRequest<?> request = ServerRequestContext.currentRequest().orElse(null);
    Long expected = ETags.expected(ifMatch, ifNoneMatch);
    String sql = JobTexts.sql(body.getSpec() == null ? null : body.getSpec().tree(), body.getSql());
    String spec = sql != null ? null : JsonTrees.toJson(body.getSpec() == null ? null : body.getSpec().tree());
    DesiredState desired = body.getDesiredState() == null ? null : DesiredState.valueOf(body.getDesiredState().getValue());
    return Blocking.call(() -> {
      RestorePolicy restore = body.getRestorePolicy() == null ? null
          : restores.resolve(project, name, body.getRestorePolicy(), true);
      JobManager.ApplyResult result = sql != null ? jobs.applySql(project, name, sql, expected, desired)
          : jobs.apply(project, name, spec, expected, desired);
      JobView view = result.job();
      if (result.outcome() == JobManager.ApplyOutcome.CREATED) {
        if (request != null) {
          request.setAttribute(CREATED, Boolean.TRUE);
        }
      } else if (desired != null && desired != view.desired()) {
        view = desired == DesiredState.STOPPED ? jobs.stop(project, name, false) : jobs.resume(project, name, restore);
      } else if (restore != null && !restore.equals(view.restore()) && !view.observed().active()) {
        throw new InvalidRequestException("restorePolicy", "a restore policy takes effect when the job is "
            + "resumed; resume it with this policy instead");
      }
      return ApiModels.job(view);
    });
  }

  @Override
  public Mono<Job> getJob(String project, String name) {
    access.require(project, Role.VIEWER);
    return Blocking.call(() -> ApiModels.job(jobs.get(project, name)));
  }

  @Override
  public Mono<JobList> listJobs(String project, Integer pageSize, String pageToken) {
    access.require(project, Role.VIEWER);
    int size = Pages.size(pageSize);
    return Blocking.call(() -> {
      JobPage page = jobs.list(project, pageToken == null || pageToken.isEmpty() ? null : pageToken, size);
      JobList list = new JobList(page.jobs().stream().map(ApiModels::job).toList());
      if (page.nextPageToken() != null) {
        list.nextPageToken(page.nextPageToken());
      }
      return list;
    });
  }

  @Override
  public Mono<Void> deleteJob(String project, String name, String ifMatch, Boolean deleteSavepoints) {
    access.require(project, Role.EDITOR);
    Long expected = ETags.expected(ifMatch, null);
    return Blocking.run(() -> jobs.delete(project, name, expected, Boolean.TRUE.equals(deleteSavepoints)));
  }
}
