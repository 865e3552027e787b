package io.tributary.server;

import io.micronaut.http.annotation.Controller;
import io.tributary.api.generated.AbstractEventsController;
import io.tributary.api.generated.model.JobEvent;
import io.tributary.api.generated.model.JobEventList;
import io.tributary.scheduler.lifecycle.JobManager;
import io.tributary.scheduler.lifecycle.TokenStore.Role;
import java.util.List;
import reactor.core.publisher.Mono;

/** A job's lifecycle events, newest first (as the contract says). */
@Controller
class EventsController extends AbstractEventsController {
  private final JobManager jobs;
  private final Access access;

  EventsController(JobManager jobs, Access access) {
    this.jobs = jobs;
    this.access = access;
  }

  @Override
  public Mono<JobEventList> listJobEvents(String project, String name, Integer pageSize, String pageToken) {
    access.require(project, Role.VIEWER);
    return Blocking.call(() -> {
      List<JobEvent> all = new java.util.ArrayList<>(jobs.events(project, name).stream().map(ApiModels::event).toList());
      java.util.Collections.reverse(all);
      return Pages.of(all, pageSize, pageToken, JobEventList::new, JobEventList::nextPageToken);
    });
  }
}
