package io.tributary.server;

import io.tributary.api.generated.model.RestorePolicy.FromEnum;
import io.tributary.scheduler.lifecycle.CheckpointRef;
import io.tributary.scheduler.lifecycle.InvalidRequestException;
import io.tributary.scheduler.lifecycle.JobManager;
import io.tributary.scheduler.lifecycle.NotFoundException;
import io.tributary.scheduler.master.RestorePolicy;
import jakarta.inject.Singleton;

/** Turns the API's restore policy ({@code from} and a savepoint id) into the control plane's. */
@Singleton
final class Restores {
  private final JobManager jobs;

  Restores(JobManager jobs) {
    this.jobs = jobs;
  }

  /**
   * @param mayNotExist the job may not exist yet (an apply that creates it): only {@code latest}
   *     and {@code none} make sense then
   */
  RestorePolicy resolve(String project, String name, io.tributary.api.generated.model.RestorePolicy p,
      boolean mayNotExist) {
    FromEnum from = p.getFrom() == null ? FromEnum.LATEST : p.getFrom();
    if (from != FromEnum.SAVEPOINT) {
      if (p.getSavepointId() != null) {
        throw new InvalidRequestException("restorePolicy/savepointId", "is only for from: savepoint");
      }
      return from == FromEnum.NONE ? RestorePolicy.NONE : RestorePolicy.LATEST;
    }
    if (p.getSavepointId() == null || p.getSavepointId().isBlank()) {
      throw new InvalidRequestException("restorePolicy/savepointId", "is required with from: savepoint");
    }
    return new RestorePolicy(RestorePolicy.Mode.PATH, savepointPath(project, name, p.getSavepointId(), mayNotExist));
  }

  /** The metadata path of savepoint {@code id} of the job. */
  String savepointPath(String project, String name, String id, boolean mayNotExist) {
    try {
      for (CheckpointRef ref : jobs.savepoints(project, name)) {
        if (ApiModels.savepointId(ref.path()).equals(id)) {
          return ref.path();
        }
      }
    } catch (NotFoundException e) {
      if (!mayNotExist) {
        throw e;
      }
    }
    throw new InvalidRequestException("restorePolicy/savepointId",
        "job '" + name + "' has no savepoint '" + id + "'");
  }
}
