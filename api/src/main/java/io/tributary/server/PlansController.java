package io.tributary.server;

import io.micronaut.http.annotation.Controller;
import io.tributary.api.generated.AbstractPlansController;
import io.tributary.api.generated.model.ExecutionPlan;
import io.tributary.api.generated.model.PlanChange;
import io.tributary.api.generated.model.PlanRequest;
import io.tributary.scheduler.lifecycle.JobManager;
import io.tributary.scheduler.lifecycle.TokenStore.Role;
import reactor.core.publisher.Mono;

/**
 * The dry run: a spec's (or a SQL job's) execution plan, or every validation error, and what
 * applying it would do.
 */
@Controller
class PlansController extends AbstractPlansController {
  private final JobManager jobs;
  private final Access access;
  PlansController(JobManager jobs, Access access) {
    this.jobs = jobs;
    this.access = access;
  }

  @Override
  public Mono<ExecutionPlan> planJob(String project, PlanRequest body) {
    access.require(project, Role.VIEWER);
    String sql = JobTexts.sql(body.getSpec() == null ? null : body.getSpec().tree(), body.getSql());
    String spec = sql != null ? null : JsonTrees.toJson(body.getSpec() == null ? null : body.getSpec().tree());
    return Blocking.call(() -> {
      JobManager.PlanPreview preview = sql != null ? jobs.planSql(project, sql, body.getName())
          : jobs.plan(project, spec);
      PlanChange.ActionEnum action;
      switch (preview.change()) {
        case CREATED:
          action = PlanChange.ActionEnum.CREATE;
          break;
        case UNCHANGED:
          action = PlanChange.ActionEnum.NONE;
          break;
        default:
          action = PlanChange.ActionEnum.UPDATE;
      }
      return ApiModels.plan(preview.plan()).jobName(preview.name())
          .change(new PlanChange(action).description(preview.description()));
    });
  }
}
