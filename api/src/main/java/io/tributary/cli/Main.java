package io.tributary.cli;

import io.tributary.cli.client.ApplyCommand;
import io.tributary.cli.client.CheckpointsCommand;
import io.tributary.cli.client.DeleteCommand;
import io.tributary.cli.client.EventsCommand;
import io.tributary.cli.client.GetCommand;
import io.tributary.cli.client.ListCommand;
import io.tributary.cli.client.MetricsCommand;
import io.tributary.cli.client.OutputCommand;
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
        RescaleCommand.class, SavepointsCommand.class, CheckpointsCommand.class, EventsCommand.class,
        MetricsCommand.class, OutputCommand.class, DeleteCommand.class, CommandLine.HelpCommand.class})
public final class Main implements java.util.concurrent.Callable<Integer> {
  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  static {
    // connector clients (Kafka) log at INFO by default: keep the user's terminal for progress
    if (System.getProperty("org.slf4j.simpleLogger.defaultLogLevel") == null) {
      System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
    }
    quietKafkaReconnects();
  }

  /**
   * Kafka's network client warns at every reconnect to a broker it cannot reach: some 65 lines in
   * the 30 s before a source says in one line that the broker gave no answer. Its errors still show.
   */
  public static void quietKafkaReconnects() {
    String key = "org.slf4j.simpleLogger.log.org.apache.kafka.clients.NetworkClient";
    if (System.getProperty(key) == null) {
      System.setProperty(key, "error");
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
    cli.setParameterExceptionHandler(Main::usageError);
    return cli.execute(args);
  }

  /**
   * A command line picocli cannot take (a missing option, an unknown one, a bad value): one line
   * that says why and where the usage is, not the whole usage, and exit code 2.
   */
  public static int usageError(CommandLine.ParameterException ex, String[] args) {
    CommandLine cmd = ex.getCommandLine();
    StringBuilder line = new StringBuilder("tributary: ").append(ex.getMessage().strip().replaceAll("\\s*\\R\\s*", " "));
    if (ex instanceof CommandLine.UnmatchedArgumentException u && !u.getSuggestions().isEmpty()) {
      line.append("; did you mean ").append(String.join(" or ", u.getSuggestions())).append('?');
    }
    line.append(" (see '").append(cmd.getCommandSpec().qualifiedName()).append(" --help')");
    cmd.getErr().println(line);
    return cmd.getCommandSpec().exitCodeOnInvalidInput();
  }

  /** No command named: the usage, on stderr, and exit code 2. */
  @Override
  public Integer call() {
    spec.commandLine().usage(System.err);
    return 2;
  }
}
