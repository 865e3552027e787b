package io.tributary.cli;

import io.tributary.plan.ExecutionPlan;
import io.tributary.planner.PlanPrinter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** Checks a job spec offline and prints its execution plan. */
@Command(name = "validate", description = "Check a job spec (offline) and print its execution plan.")
final class ValidateCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "SPEC", description = "job spec file (YAML or JSON)")
  Path spec;

  @Option(names = {"-p", "--parallelism"}, description = "override the spec's parallelism")
  Integer parallelism;

  @Override
  public Integer call() throws Exception {
    ExecutionPlan plan = Jobs.plan(spec, parallelism);
    System.out.println(PlanPrinter.describe(plan));
    return 0;
  }
}
