package io.tributary.bench;

import io.tributary.worker.state.StateBackends;
import io.tributary.state.forst.bench.StateBenchmark;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code tributary bench state}: state operations per second (heap vs forst), incremental snapshot
 * cost, and time to the first state access after a restore, against state size.
 */
@Command(name = "state", description = "Keyed state: ops/s heap vs forst, snapshots, restore time.")
final class StateBench implements Callable<Integer> {
  @Option(names = "--state-size", defaultValue = "1g",
      description = "state size for the snapshot and restore figures (default ${DEFAULT-VALUE})")
  String stateSize;

  @Option(names = "--work-dir", description = "where the object store and local files go (default: a temp dir)")
  Path workDir;

  @Override
  public Integer call() throws Exception {
    Path dir = workDir != null ? workDir : Files.createTempDirectory("tributary-bench-state");
    StateBenchmark.run(System.out, StateBackends.parseBytes(stateSize), dir);
    return 0;
  }
}
