package io.tributary.server;

import io.micronaut.http.annotation.Controller;
import io.tributary.api.generated.AbstractHealthController;
import io.tributary.api.generated.model.Health;
import io.tributary.scheduler.lifecycle.JobManager;
import reactor.core.publisher.Mono;

/** {@code GET /health} and {@code GET /metrics} (Prometheus), both without a token. */
@Controller
class HealthController extends AbstractHealthController {
  static final String VERSION = HealthController.class.getPackage().getImplementationVersion() != null
      ? HealthController.class.getPackage().getImplementationVersion() : "0.1.0-SNAPSHOT";

  private final JobManager jobs;

  HealthController(JobManager jobs) {
    this.jobs = jobs;
  }

  @Override
  public Mono<Health> getHealth() {
    return Mono.just(new Health(Health.StatusEnum.UP).version(VERSION));
  }

  @Override
  public Mono<String> getPrometheusMetrics() {
    return Blocking.call(jobs::prometheus);
  }
}
