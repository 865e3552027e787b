package io.tributary.cli;

import io.tributary.plan.ExecutionPlan;
import io.tributary.worker.job.LocalJob;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** Runs a job in this process until its bounded sources end, or until interrupted. */
@Command(name = "run", description = {
    "Run a job in this process until its bounded sources end (or Ctrl-C).",
    "Progress goes to stderr every few seconds: records in and out, watermark, late and malformed records."})
final class RunCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "SPEC", description = "job spec file (YAML or JSON)")
  Path spec;

  @Option(names = {"-p", "--parallelism"}, description = "override the spec's parallelism")
  Integer parallelism;

  @Option(names = "--progress-interval", defaultValue = "3s",
      description = "how often to print progress (default ${DEFAULT-VALUE}; 0 = never)",
      converter = DurationConverter.class)
  Duration progressInterval;

  @Override
  public Integer call() throws Exception {
    ExecutionPlan plan = Jobs.plan(spec, parallelism);
    PrintStream err = System.err;
    err.println("tributary: running " + plan.jobName() + " (" + plan.stages().size() + " stages, "
        + plan.stages().stream().mapToInt(s -> s.parallelism()).sum() + " tasks)");
    try (StateBackends state = Jobs.stateBackends()) {
      return run(plan, state, err);
    }
  }

  private int run(ExecutionPlan plan, StateBackends state, PrintStream err) throws InterruptedException {
    LocalJob job = LocalJob.start(plan, state.factories());
    java.util.concurrent.atomic.AtomicBoolean interrupted = new java.util.concurrent.atomic.AtomicBoolean();
    Thread hook = new Thread(() -> {
      interrupted.set(true);
      try {
        job.cancel();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, "tributary-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    Progress progress = new Progress(job.metrics(), err);
    long every = progressInterval.toMillis();
    while (!job.await(every > 0 ? every : 1000, TimeUnit.MILLISECONDS)) {
      if (every > 0) {
        progress.report();
      }
    }
    progress.report();
    state.forstMetrics().ifPresent(m -> err.println("tributary: state (forst): " + m.describe()));
    if (interrupted.get()) {
      err.println("tributary: " + plan.jobName() + " stopped (interrupted); files in progress stay hidden");
      return 130;
    }
    Runtime.getRuntime().removeShutdownHook(hook);
    err.println("tributary: " + plan.jobName() + " finished");
    return 0;
  }
}
