package io.tributary.cli;

import io.tributary.cli.client.ApplyCommand;
import io.tributary.cli.client.DeleteCommand;
import io.tributary.cli.client.EventsCommand;
import io.tributary.cli.client.GetCommand;
import io.tributary.cli.client.ListCommand;
import io.tributary.cli.client.RescaleCommand;
import io.tributary.cli.client.ResumeCommand;
import io.tributary.cli.client.SavepointsCommand;
import io.tributary.cli.client.StopCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code tributary} command line. */
@Command(
    name = "tributary",
    mixinStandardHelpOptions = true,
    version = "tributary 0.1.0",
    description = "Serverless stream processing with Flink semantics.",
    subcommands = {RunCommand.class, ValidateCommand.class, ServerCommand.class, WorkerCommand.class,
        ApplyCommand.class, GetCommand.class, ListCommand.class, StopCommand.class, ResumeCommand.class,
        RescaleCommand.class, SavepointsCommand.class, EventsCommand.class, DeleteCommand.class})
public final class Main implements Runnable {
  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  static {
    // connector clients (Kafka) log at INFO by default: keep the user's terminal for progress
    if (System.getProperty("org.slf4j.simpleLogger.defaultLogLevel") == null) {
      System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
    }
  }

  public static void main(String[] args) {
    System.exit(execute(args));
  }

  /** Runs the CLI and returns the exit code (for tests). */
  public static int execute(String... args) {
    CommandLine cli = new CommandLine(new Main());
    cli.setExecutionExceptionHandler((ex, line, parsed) -> {
      line.getErr().println("tributary: " + CliErrors.describe(ex));
      return CliErrors.exitCode(ex);
    });
    return cli.execute(args);
  }

  @Override
  public void run() {
    spec.commandLine().usage(System.err);
  }
}
