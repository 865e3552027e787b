package io.tributary.bench;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code tributary bench}: benchmarks, commands that print figures. A module of its own, never part
 * of the product; {@code bin/tributary bench ...} runs {@link #main}.
 */
@Command(name = "tributary bench", mixinStandardHelpOptions = true, scope = CommandLine.ScopeType.INHERIT, description = "Run a benchmark and print its figures.",
    subcommands = {NexmarkBench.class, StateBench.class, TimerBench.class, CheckpointBench.class, ApiBench.class, ClusterBench.class,
        AutoscaleBench.class})
public final class BenchCommand implements java.util.concurrent.Callable<Integer> {
  static {
    quietLogging();
  }

  /** Keeps the terminal for figures: warnings and errors only. */
  static void quietLogging() {
    // connector clients (Kafka) log at INFO by default
    if (System.getProperty("org.slf4j.simpleLogger.defaultLogLevel") == null) {
      System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
    }
    io.tributary.cli.Main.quietKafkaReconnects();
    // and the control plane's own INFO lines (jobs deleted, workers joined) too
    java.util.logging.Logger.getLogger("").setLevel(java.util.logging.Level.WARNING);
  }

  public static void main(String[] args) {
    System.exit(execute(args));
  }

  /** Runs a benchmark and returns the exit code (for tests). */
  public static int execute(String... args) {
    CommandLine cli = new CommandLine(new BenchCommand());
    cli.setExecutionExceptionHandler((ex, line, parsed) -> {
      line.getErr().println("tributary: " + ex.getMessage());
      return 1;
    });
    cli.setParameterExceptionHandler(io.tributary.cli.Main::usageError);
    return cli.execute(args);
  }

  /** No benchmark named: says how to name one, exit code 2. */
  @Override
  public Integer call() {
    System.err.println("tributary: name a benchmark, for example: bench nexmark --query q5 --events 2000000"
        + " (see 'tributary bench --help')");
    return 2;
  }
}
