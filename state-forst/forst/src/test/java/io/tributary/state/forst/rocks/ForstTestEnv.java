package io.tributary.state.forst.rocks;

import io.tributary.state.forst.store.LocalObjectStore;
import java.nio.file.Path;

/** An object store and a factory in a temporary directory; small budgets to keep tests light. */
final class ForstTestEnv implements AutoCloseable {
  final LocalObjectStore store;
  final Path localDir;
  private final long stateCacheEntries;
  ForstStateBackendFactory factory;

  ForstTestEnv(Path root) {
    this(root, ForstConfig.DEFAULT_STATE_CACHE_ENTRIES);
  }

  /** With {@code stateCacheEntries} 0, the factory's backends are {@link ForstKeyedStateBackend}s themselves. */
  ForstTestEnv(Path root, long stateCacheEntries) {
    this.store = new LocalObjectStore(root.resolve("objects"));
    this.localDir = root.resolve("local");
    this.stateCacheEntries = stateCacheEntries;
    this.factory = newFactory();
  }

  ForstStateBackendFactory newFactory() {
    return newFactory(localDir);
  }

  /** Another factory over the same store, as a second process with its own local disk would have. */
  ForstStateBackendFactory newFactory(Path localDir) {
    return ForstStateBackendFactory.fromConfig(new ForstConfig(store, localDir, 1L << 30, 8L << 20, 16L << 20,
        stateCacheEntries));
  }

  /** Simulates a fresh process: closes the factory, wipes the local directory, opens a new one. */
  void restartWipingLocalDisk() {
    factory.close();
    SnapshotWriter.deleteQuietly(localDir);
    factory = newFactory();
  }

  @Override
  public void close() {
    factory.close();
    store.close();
  }
}
