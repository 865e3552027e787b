package io.tributary.server;

import io.micronaut.http.annotation.Controller;
import io.tributary.api.generated.AbstractSavepointsController;
import io.tributary.api.generated.model.Savepoint;
import io.tributary.api.generated.model.SavepointList;
import io.tributary.scheduler.lifecycle.CheckpointRef;
import io.tributary.scheduler.lifecycle.JobManager;
import io.tributary.scheduler.lifecycle.NotFoundException;
import io.tributary.scheduler.lifecycle.TokenStore.Role;
import java.util.Comparator;
import java.util.List;
import reactor.core.publisher.Mono;

/** Trigger, list and read savepoints. */
@Controller
class SavepointsController extends AbstractSavepointsController {
  private final JobManager jobs;
  private final Access access;

  SavepointsController(JobManager jobs, Access access) {
    this.jobs = jobs;
    this.access = access;
  }

  @Override
  public Mono<Savepoint> triggerSavepoint(String project, String name) {
    access.require(project, Role.EDITOR);
    ETags.accepted();
    return Blocking.call(() -> ApiModels.savepoint(jobs.triggerSavepoint(project, name)));
  }

  @Override
  public Mono<SavepointList> listSavepoints(String project, String name, Integer pageSize, String pageToken) {
    access.require(project, Role.VIEWER);
    return Blocking.call(() -> {
      List<Savepoint> all = jobs.savepoints(project, name).stream()
          .sorted(Comparator.comparingLong(CheckpointRef::id).reversed()).map(ApiModels::savepoint).toList();
      return Pages.of(all, pageSize, pageToken, SavepointList::new, SavepointList::nextPageToken);
    });
  }

  @Override
  public Mono<Savepoint> getSavepoint(String project, String name, String savepointId) {
    access.require(project, Role.VIEWER);
    return Blocking.call(() -> ApiModels.savepoint(find(project, name, savepointId)));
  }

  @Override
  public Mono<Void> deleteSavepoint(String project, String name, String savepointId) {
    access.require(project, Role.EDITOR);
    return Blocking.run(() -> jobs.deleteSavepoint(project, name, find(project, name, savepointId).id()));
  }

  private CheckpointRef find(String project, String name, String savepointId) {
    return jobs.savepoints(project, name).stream().filter(r -> ApiModels.savepointId(r.path()).equals(savepointId))
        .findFirst()
        .orElseThrow(() -> new NotFoundException("job '" + name + "' has no savepoint '" + savepointId + "'"));
  }
}
