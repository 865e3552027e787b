package io.tributary.server;

import io.micronaut.http.annotation.Controller;
import io.tributary.api.generated.AbstractPlansController;
import io.tributary.api.generated.model.ExecutionPlan;
import io.tributary.api.generated.model.PlanChange;
import io.tributary.api.generated.model.PlanRequest;
import io.tributary.scheduler.lifecycle.JobManager;
import io.tributary.scheduler.lifecycle.TokenStore.Role;
import reactor.core.publisher.Mono;

/** The dry run: a spec's execution plan, or every validation error, and what applying it would do. */
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
    String spec = JsonTrees.toJson(body.getSpec() == null ? null : body.getSpec().tree());
    return Blocking.call(() -> {
      io.tributary.scheduler.spec.JobSpec parsed = io.tributary.scheduler.spec.JobSpecs.parse(spec);
      JobManager.PlanPreview preview = jobs.plan(project, spec);
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
      return ApiModels.plan(preview.plan()).jobName(parsed.name()).change(new PlanChange(action).description(preview.description()));
    });
  }
}
