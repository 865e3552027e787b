package io.tributary.protocol;

import java.util.Objects;

/**
 * One attempt (run) of a job. The attempt number is the epoch the job's run took from its
 * checkpoint store: it grows with every run, numbers the sinks' transactional attempts, and fences
 * reports and commits of older attempts.
 *
 * @param job the job's internal name
 * @param attempt the run's epoch (for runs without checkpoints, which take none: a number unique across
 *     the runs of the process that runs them)
 */
public record AttemptId(String job, long attempt) {
  public AttemptId {
    Objects.requireNonNull(job, "job");
  }

  @Override
  public String toString() {
    return job + "#" + attempt;
  }
}
