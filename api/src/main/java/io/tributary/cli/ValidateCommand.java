package io.tributary.cli;

import io.tributary.cli.client.RemoteValidation;
import io.tributary.cli.client.ServerOptions;
import io.tributary.plan.ExecutionPlan;
import io.tributary.scheduler.planner.PlanPrinter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * Checks a job spec and prints its execution plan: offline, unless a server is named ({@code
 * --server} or {@code TRIBUTARY_SERVER}), which then plans it ({@code POST /plans}) and says what
 * applying it would change.
 */
@Command(name = "validate", mixinStandardHelpOptions = true, description = "Check a job spec and print its execution plan "
    + "(offline; on the server with --server or $TRIBUTARY_SERVER, unless --offline).")
final class ValidateCommand implements Callable<Integer> {
  @Spec
  CommandSpec command;

  @Parameters(index = "0", arity = "0..1", paramLabel = "SPEC",
      description = "job spec file (YAML or JSON), or a SQL job (*.sql)")
  Path spec;

  @Option(names = {"-f", "--file"}, paramLabel = "FILE", description = "job spec file, as SPEC ('-' reads stdin with a server)")
  String file;

  @Option(names = {"-p", "--parallelism"}, paramLabel = "N", description = "override the spec's parallelism")
  Integer parallelism;

  @Option(names = "--offline", description = "validate here even when a server is named")
  boolean offline;

  @Mixin
  ServerOptions server;

  @Override
  public Integer call() throws Exception {
    if ((spec == null) == (file == null)) {
      throw new ParameterException(command.commandLine(), "name one spec file: SPEC or -f FILE");
    }
    String specFile = file != null ? file : spec.toString();
    if (!offline && server.serverNamed()) {
      return RemoteValidation.validate(server, specFile, parallelism);
    }
    if (server.output() != ServerOptions.Format.TABLE) {
      throw new ParameterException(command.commandLine(), "-o json|yaml prints the server's plan: name a server with --server");
    }
    ExecutionPlan plan = Jobs.plan(Path.of(specFile), parallelism);
    System.out.println(PlanPrinter.describe(plan));
    return 0;
  }
}
