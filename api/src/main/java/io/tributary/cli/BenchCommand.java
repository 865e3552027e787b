package io.tributary.cli;

import io.tributary.cli.client.ApiBench;
import picocli.CommandLine.Command;

/** Benchmarks: commands that print figures. */
@Command(name = "bench", description = "Run a benchmark and print its figures.",
    subcommands = {NexmarkBench.class, StateBench.class, CheckpointBench.class, ApiBench.class})
final class BenchCommand implements Runnable {
  @Override
  public void run() {
    System.err.println("tributary: name a benchmark, for example: bench nexmark --query q5 --events 2000000");
  }
}
