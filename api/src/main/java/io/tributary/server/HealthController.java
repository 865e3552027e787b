package io.tributary.server;

import io.micronaut.http.annotation.Controller;
import io.tributary.api.generated.AbstractHealthController;
import io.tributary.api.generated.model.Health;
import io.tributary.scheduler.lifecycle.JobManager;
import reactor.core.publisher.Mono;

/**
 * {@code GET /health} without a token, and {@code GET /metrics} (Prometheus: it names every project
 * and job) for the administrator or the metrics token only.
 */
@Controller
class HealthController extends AbstractHealthController {
  static final String VERSION = HealthController.class.getPackage().getImplementationVersion() != null
      ? HealthController.class.getPackage().getImplementationVersion() : "0.1.0-SNAPSHOT";

  private final JobManager jobs;
  private final Access access;

  HealthController(JobManager jobs, Access access) {
    this.jobs = jobs;
    this.access = access;
  }

  @Override
  public Mono<Health> getHealth() {
    var leadership = jobs.leadership();
    Health h = new Health(Health.StatusEnum.UP).version(VERSION)
        .role(leadership.leading() ? Health.RoleEnum.LEADER : Health.RoleEnum.FOLLOWER);
    leadership.leaderUrl().ifPresent(h::leader);
    return Mono.just(h);
  }

  @Override
  public Mono<String> getPrometheusMetrics() {
    access.requireMetricsReader();
    return Blocking.call(jobs::prometheus);
  }
}
