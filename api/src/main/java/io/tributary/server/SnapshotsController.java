package io.tributary.server;

import io.micronaut.http.annotation.Controller;
import io.tributary.api.generated.AbstractCheckpointsController;
import io.tributary.api.generated.model.Checkpoint;
import io.tributary.api.generated.model.CheckpointList;
import io.tributary.scheduler.lifecycle.JobManager;
import io.tributary.scheduler.lifecycle.TokenStore.Role;
import java.util.List;
import reactor.core.publisher.Mono;

/** The job's retained checkpoints, newest first. */
@Controller
class SnapshotsController extends AbstractCheckpointsController {
  private final JobManager jobs;
  private final Access access;

  SnapshotsController(JobManager jobs, Access access) {
    this.jobs = jobs;
    this.access = access;
  }

  @Override
  public Mono<CheckpointList> listCheckpoints(String project, String name, Integer pageSize, String pageToken) {
    access.require(project, Role.VIEWER);
    return Blocking.call(() -> {
      List<Checkpoint> all = jobs.checkpoints(project, name).stream().map(ApiModels::checkpoint)
          .sorted((a, b) -> Long.compare(b.getId(), a.getId())).toList();
      return Pages.of(all, pageSize, pageToken, CheckpointList::new, CheckpointList::nextPageToken);
    });
  }
}
