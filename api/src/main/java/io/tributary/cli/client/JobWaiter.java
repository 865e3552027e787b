package io.tributary.cli.client;

import io.tributary.client.ApiException;
import io.tributary.client.model.Job;
import io.tributary.client.model.JobFailure;
import io.tributary.client.model.ObservedState;
import java.time.Duration;
import java.util.function.Predicate;

/**
 * Polls a job until it reaches what a command asked for, fails, or the time is up.
 *
 * <p>A failure counts only when it happened after the change being waited for ({@code
 * failure.at} not before the job's {@code updatedAt} in the answer to the change): resuming a
 * failed job does not end the wait at once because of its old failure. Polls start every 100 ms
 * and back off to one second.
 */
final class JobWaiter {
  private static final Duration FIRST_POLL = Duration.ofMillis(100);
  private static final Duration MAX_POLL = Duration.ofSeconds(1);

  private final ServerConnection server;
  private final Duration timeout;

  JobWaiter(ServerConnection server, Duration timeout) {
    this.server = server;
    this.timeout = timeout;
  }

  /**
   * Running, or finished for a bounded job that already ended; or, if it is meant to be stopped,
   * not running (stopped, finished, or created and never started).
   */
  Job settled(Job changed) throws ApiException {
    boolean stopped = changed.getDesiredState() != null && "STOPPED".equals(changed.getDesiredState().getValue());
    return stopped ? stopped(changed) : running(changed, "run");
  }

  Job running(Job changed, String goal) throws ApiException {
    return await(changed, goal, j -> is(j, ObservedState.RUNNING) || is(j, ObservedState.FINISHED));
  }

  Job stopped(Job changed) throws ApiException {
    return await(changed, "stop",
        j -> is(j, ObservedState.STOPPED) || is(j, ObservedState.FINISHED) || is(j, ObservedState.CREATED));
  }

  Job rescaled(Job changed, int parallelism) throws ApiException {
    return rescaled(changed, parallelism, java.util.Map.of());
  }

  /**
   * Waits until the job runs at {@code parallelism} (null: any) with each stage named in {@code
   * stages} (by any of its operators' ids) running that many tasks.
   */
  Job rescaled(Job changed, Integer parallelism, java.util.Map<String, Integer> stages) throws ApiException {
    String goal = "run" + (parallelism != null ? " at parallelism " + parallelism : "")
        + (stages.isEmpty() ? "" : " with " + stages);
    return await(changed, goal, j -> is(j, ObservedState.RUNNING)
        && (parallelism == null || parallelism.equals(j.getParallelism()))
        && stages.entrySet().stream().allMatch(e -> tasksOf(j, e.getKey()) == e.getValue()));
  }

  /** How many tasks of {@code job}'s current attempt run the stage of operator {@code operatorId}. */
  private static long tasksOf(Job job, String operatorId) {
    return job.getTasks() == null ? 0 : job.getTasks().stream()
        .filter(t -> t.getStage() != null && java.util.Arrays.asList(t.getStage().split(" -> ")).contains(operatorId))
        .count();
  }

  private Job await(Job changed, String goal, Predicate<Job> done) throws ApiException {
    long deadline = System.nanoTime() + timeout.toNanos();
    Duration pause = FIRST_POLL;
    Job job = changed;
    while (true) {
      if (done.test(job)) {
        return job;
      }
      if (failedSince(job, changed)) {
        throw new CliFailure(ExitCodes.OTHER, "job " + job.getName() + " failed: " + job.getFailure().getReason());
      }
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        throw new CliFailure(ExitCodes.OTHER, "timed out after " + Human.duration(timeout) + " waiting for job "
            + job.getName() + " to " + goal + "; it is " + state(job) + lastFailure(job));
      }
      sleep(Math.min(pause.toNanos(), left));
      pause = pause.multipliedBy(2).compareTo(MAX_POLL) > 0 ? MAX_POLL : pause.multipliedBy(2);
      job = server.jobs.getJob(server.project(), changed.getName());
    }
  }

  private static boolean failedSince(Job job, Job changed) {
    JobFailure f = job.getFailure();
    if (!is(job, ObservedState.FAILED) || f == null) {
      return false;
    }
    return f.getAt() == null || changed.getUpdatedAt() == null || !f.getAt().isBefore(changed.getUpdatedAt());
  }

  private static String lastFailure(Job job) {
    return job.getFailure() == null ? "" : " (last failure: " + job.getFailure().getReason() + ")";
  }

  private static String state(Job job) {
    return job.getObservedState() == null ? "in an unknown state" : job.getObservedState().getValue();
  }

  private static boolean is(Job job, ObservedState state) {
    return job.getObservedState() == state;
  }

  private static void sleep(long nanos) {
    try {
      Thread.sleep(nanos / 1_000_000, (int) (nanos % 1_000_000));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CliFailure(ExitCodes.OTHER, "interrupted while waiting");
    }
  }
}
