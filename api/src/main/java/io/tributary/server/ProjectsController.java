package io.tributary.server;

import io.micronaut.http.annotation.Controller;
import io.tributary.api.generated.AbstractProjectsController;
import io.tributary.api.generated.model.Project;
import io.tributary.api.generated.model.ProjectCreate;
import io.tributary.api.generated.model.ProjectList;
import io.tributary.scheduler.lifecycle.JobManager;
import io.tributary.scheduler.lifecycle.TokenStore.Principal;
import io.tributary.scheduler.lifecycle.TokenStore.Role;
import java.util.List;
import reactor.core.publisher.Mono;

/** Projects: the administrator creates and deletes them; a project's token sees its own only. */
@Controller
class ProjectsController extends AbstractProjectsController {
  private final JobManager jobs;
  private final Access access;

  ProjectsController(JobManager jobs, Access access) {
    this.jobs = jobs;
    this.access = access;
  }

  private static Project project(io.tributary.scheduler.lifecycle.Project p) {
    return new Project(p.name(), ApiModels.time(p.createdAt()));
  }

  @Override
  public Mono<Project> createProject(ProjectCreate body) {
    access.requireAdministrator();
    io.micronaut.http.context.ServerRequestContext.currentRequest()
        .ifPresent(r -> r.setAttribute(JobsController.CREATED, Boolean.TRUE));
    return Blocking.call(() -> project(jobs.projects().create(body.getName())));
  }

  @Override
  public Mono<ProjectList> listProjects(Integer pageSize, String pageToken) {
    Principal caller = access.principal();
    return Blocking.call(() -> {
      List<Project> all = jobs.projects().list().stream()
          .filter(p -> caller.may(p.name(), Role.VIEWER)).map(ProjectsController::project).toList();
      return Pages.of(all, pageSize, pageToken, ProjectList::new, ProjectList::nextPageToken);
    });
  }

  @Override
  public Mono<Project> getProject(String name) {
    access.require(name, Role.VIEWER);
    return Blocking.call(() -> project(jobs.projects().get(name).orElseThrow(() -> Access.noProject(name))));
  }

  @Override
  public Mono<Void> deleteProject(String name) {
    access.requireAdministrator();
    return Blocking.run(() -> {
      jobs.projects().delete(name);
      jobs.tokens().revokeAll(name);
    });
  }
}
