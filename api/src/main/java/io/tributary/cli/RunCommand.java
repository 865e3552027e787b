package io.tributary.cli;

import io.tributary.boot.LocalRun;
import io.tributary.boot.RunEnvironment;
import io.tributary.checkpoint.CheckpointMetadata;
import io.tributary.plan.ExecutionPlan;
import io.tributary.protocol.AttemptId;
import io.tributary.protocol.Failure;
import io.tributary.protocol.WorkerReport;
import io.tributary.scheduler.checkpoint.CheckpointCoordinator;
import io.tributary.scheduler.master.JobMaster;
import io.tributary.scheduler.master.RestartPolicy;
import io.tributary.scheduler.master.RestorePolicy;
import io.tributary.scheduler.observe.JobMetricsTracker;
import io.tributary.scheduler.planner.PlanPrinter;
import io.tributary.scheduler.spec.CheckpointSpec;
import io.tributary.scheduler.spec.JobSpec;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import io.tributary.cli.client.DurationOption;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** Runs a job in this process until its bounded sources end, or until interrupted. */
@Command(name = "run", mixinStandardHelpOptions = true, description = {
    "Run a job in this process until its bounded sources end (or Ctrl-C).",
    "Progress goes to stderr every few seconds: records in and out, watermark, late and malformed records.",
    "With checkpoints (--checkpoint-dir, or `checkpoints` in the spec) the job restarts from its latest "
        + "checkpoint after a failure, and a killed run resumes with --restore latest; sinks then commit "
        + "exactly once."})
final class RunCommand implements Callable<Integer> {
  static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(10);

  @Parameters(index = "0", paramLabel = "SPEC", description = "job spec file (YAML or JSON), or a SQL job (*.sql)")
  Path spec;

  @Option(names = {"-p", "--parallelism"}, paramLabel = "N", description = "override the spec's parallelism")
  Integer parallelism;

  @Option(names = "--progress-interval", paramLabel = "DURATION", defaultValue = "3s",
      description = "how often to print progress (default ${DEFAULT-VALUE}; 0 = never)",
      converter = DurationOption.class)
  Duration progressInterval;

  @Option(names = "--checkpoint-dir", paramLabel = "DIR|URL",
      description = "where checkpoints go: a directory or s3://bucket/prefix. Default when the spec has "
          + "`checkpoints`: $TRIBUTARY_CHECKPOINT_DIR or data/checkpoints")
  String checkpointDir;

  @Option(names = "--restore", paramLabel = "latest|PATH|none", defaultValue = "none",
      description = "start from the latest checkpoint or savepoint, from the one at PATH (as printed when it "
          + "completed), or without state (default ${DEFAULT-VALUE})")
  String restore;

  @Option(names = "--checkpoint-interval", paramLabel = "DURATION", converter = DurationOption.class,
      description = "time between checkpoints (default: the spec's checkpoints.interval, else 10s)")
  Duration checkpointInterval;

  @Option(names = "--retain-checkpoints", paramLabel = "N",
      description = "completed checkpoints to keep; older ones are deleted (default: the spec's checkpoints.retain, else 3)")
  Integer retain;

  @Option(names = "--savepoint-on-stop",
      description = "on Ctrl-C or SIGTERM, take a savepoint before stopping (its output is committed); "
          + "resume it later, at any parallelism, with --restore PATH")
  boolean savepointOnStop;

  @Option(names = "--max-restarts", paramLabel = "N", defaultValue = "5",
      description = "restarts in a row after failures before the run gives up (default ${DEFAULT-VALUE})")
  int maxRestarts;

  private Progress progress;

  @Override
  public Integer call() throws Exception {
    JobSpec jobSpec = Jobs.load(spec);
    ExecutionPlan plan = Jobs.plan(jobSpec, parallelism);
    PrintStream err = System.err;
    RestorePolicy restorePolicy = RestorePolicy.parse(restore);
    String dir = checkpointDir;
    if (dir == null && (jobSpec.checkpoints() != null || checkpointInterval != null)) {
      String env = System.getenv("TRIBUTARY_CHECKPOINT_DIR");
      dir = env == null || env.isBlank() ? "data/checkpoints" : env;
    }
    if (dir == null && restorePolicy.mode() != RestorePolicy.Mode.NONE) {
      throw new IllegalArgumentException("--restore needs checkpoints: give --checkpoint-dir");
    }
    int tasks = plan.stages().stream().mapToInt(s -> s.parallelism()).sum();
    err.println("tributary: running " + plan.jobName() + " (" + PlanPrinter.count(plan.stages().size(), "stage")
        + ", " + PlanPrinter.count(tasks, "task") + ")");
    JobMetricsTracker observed = new JobMetricsTracker();
    if (dir == null) {
      try (RunEnvironment env = RunEnvironment.withoutCheckpoints();
          LocalRun run = env.run(JobMaster.Settings.withoutCheckpoints(plan), new Printer(err, observed))) {
        return runWithoutCheckpoints(plan, run, env, observed, err);
      }
    }
    long interval = checkpointInterval != null ? checkpointInterval.toMillis()
        : jobSpec.checkpoints() != null ? jobSpec.checkpoints().intervalMillis() : DEFAULT_INTERVAL.toMillis();
    try (RunEnvironment env = RunEnvironment.withCheckpoints(dir)) {
      int keep = retain != null ? retain
          : jobSpec.checkpoints() != null ? jobSpec.checkpoints().retain() : CheckpointSpec.DEFAULT_RETAIN;
      boolean exactlyOnce = jobSpec.checkpoints() == null || jobSpec.checkpoints().exactlyOnce();
      JobMaster.Settings settings = new JobMaster.Settings(plan, interval, keep, TimeUnit.MINUTES.toMillis(10),
          restorePolicy, new RestartPolicy(maxRestarts, Duration.ofSeconds(1), Duration.ofSeconds(30)), exactlyOnce);
      if (jobSpec.checkpoints() != null && jobSpec.checkpoints().unaligned()) {
        settings = settings.withUnaligned(jobSpec.checkpoints().alignmentTimeoutMillis());
      }
      settings = settings.withAllowNonRestoredState(jobSpec.state().allowsNonRestoredState());
      try (LocalRun run = env.run(settings, new Printer(err, observed))) {
        return runWithCheckpoints(plan, run.master(), env, observed, err);
      }
    }
  }

  private int runWithCheckpoints(ExecutionPlan plan, JobMaster master, RunEnvironment env, JobMetricsTracker observed,
      PrintStream err) throws InterruptedException {
    Thread hook = onStop(() -> {
      if (savepointOnStop) {
        takeSavepoint(master, err);
      }
      master.cancel();
    });
    Thread reporter = progressReporter(observed, err);
    try {
      CheckpointMetadata last = master.run();
      stopReporter(reporter);
      env.stateCounters().ifPresent(m -> err.println("tributary: state (forst): " + m));
      Runtime.getRuntime().removeShutdownHook(hook);
      err.println("tributary: " + plan.jobName() + " finished"
          + (last != null ? " (output committed with checkpoint " + last.id() + ")" : ""));
      return 0;
    } catch (CancellationException e) {
      stopReporter(reporter);
      err.println("tributary: " + plan.jobName() + " stopped (interrupted); resume with --restore latest");
      return 130;
    }
  }

  private int runWithoutCheckpoints(ExecutionPlan plan, LocalRun run, RunEnvironment env, JobMetricsTracker observed,
      PrintStream err) throws InterruptedException {
    AtomicBoolean interrupted = new AtomicBoolean();
    Thread hook = onStop(() -> {
      interrupted.set(true);
      run.master().cancel();
    });
    Thread reporter = progressReporter(observed, err);
    try {
      run.run();
    } catch (CancellationException e) {
      // reported below
    } finally {
      stopReporter(reporter);
    }
    env.stateCounters().ifPresent(m -> err.println("tributary: state (forst): " + m));
    if (interrupted.get()) {
      err.println("tributary: " + plan.jobName() + " stopped (interrupted); files in progress stay hidden");
      return 130;
    }
    Runtime.getRuntime().removeShutdownHook(hook);
    err.println("tributary: " + plan.jobName() + " finished");
    return 0;
  }

  /** What Ctrl-C or SIGTERM does. */
  private interface StopAction {
    void run() throws InterruptedException;
  }

  /** Installs {@code action} as a shutdown hook; remove the returned hook when the job ended by itself. */
  private static Thread onStop(StopAction action) {
    Thread hook = new Thread(() -> {
      try {
        action.run();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, "tributary-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    return hook;
  }

  private static void takeSavepoint(JobMaster master, PrintStream err) throws InterruptedException {
    err.println("tributary: taking a savepoint before stopping");
    try {
      CheckpointMetadata sp = master.savepoint("stop").get(2, TimeUnit.MINUTES);
      err.println("tributary: resume with --restore " + sp.job() + "/savepoints/sp-" + sp.id());
    } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
      err.println("tributary: no savepoint: " + (e.getCause() != null ? e.getCause().getMessage() : e.getMessage()));
    }
  }

  /** Prints progress every interval, and once more when {@link #stopReporter stopped}. */
  private Thread progressReporter(JobMetricsTracker observed, PrintStream err) {
    long every = progressInterval.toMillis();
    progress = new Progress(observed, err);
    Thread t = new Thread(() -> {
      try {
        while (every > 0) {
          Thread.sleep(every);
          progress.report();
        }
      } catch (InterruptedException e) {
        // stopped: the last line follows
      }
    }, "tributary-progress");
    t.setDaemon(true);
    t.start();
    return t;
  }

  private void stopReporter(Thread reporter) throws InterruptedException {
    reporter.interrupt();
    reporter.join();
    progress.report();
  }

  /** Checkpoint and restart events, one line each, to stderr; metrics reports to the progress tracker. */
  private static final class Printer implements JobMaster.Events {
    private final PrintStream err;
    private final JobMetricsTracker observed;

    Printer(PrintStream err, JobMetricsTracker observed) {
      this.err = err;
      this.observed = observed;
    }

    @Override
    public void deploying(AttemptId attempt, ExecutionPlan plan) {
      observed.attemptStarted(attempt, plan);
    }

    @Override
    public void observed(WorkerReport report) {
      observed.report(report);
    }

    @Override
    public void attemptEnded(AttemptId attempt) {
      observed.attemptEnded(attempt);
    }

    @Override
    public void restoring(CheckpointMetadata from) {
      err.println("tributary: restoring from " + from.kind() + " " + from.id());
    }

    @Override
    public void notRestored(CheckpointMetadata from, java.util.List<String> operators) {
      err.println("tributary: " + JobMaster.Events.describeNotRestored(from, operators));
    }

    @Override
    public void completed(CheckpointMetadata md, CheckpointCoordinator.CheckpointStats stats) {
      if (md.isSavepoint()) {
        err.println("savepoint " + md.id() + " completed: " + stats.path());
      } else {
        err.println("checkpoint " + md.id() + " completed");
      }
    }

    @Override
    public void aborted(long checkpointId, String reason) {
      err.println("tributary: checkpoint " + checkpointId + " aborted: " + reason);
    }

    @Override
    public void restarting(Failure failure, int restart, int maxRestarts, Duration backoff) {
      err.println("tributary: job failed, " + failure.describe() + "; restarting from the latest checkpoint in "
          + backoff.toMillis() + " ms (restart " + restart + " of " + maxRestarts + ")");
    }
  }
}
