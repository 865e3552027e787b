package io.tributary.state.forst.rocks;

import io.tributary.state.KeyGroupRange;
import io.tributary.state.KeyedStateBackend;
import io.tributary.state.StateBackendFactory;
import io.tributary.state.StateSnapshot;
import io.tributary.state.forst.registry.SharedFileRegistry;
import io.tributary.state.forst.statecache.CachingKeyedStateBackend;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Creates {@link ForstKeyedStateBackend}s; configured as {@code forst}. One factory per process: it
 * owns the shared block cache and memtable budget, the local file cache, the transfer threads and
 * the registry of files referenced by retained snapshots. Close it after every backend it created.
 *
 * <p>Backends sit behind a {@link CachingKeyedStateBackend} of {@link ForstConfig#stateCacheEntries}
 * entries, so repeated access to a key works on objects and RocksDB sees only evictions and the
 * writes before each snapshot.
 *
 * <p>Restore (contracts C7, C8) accepts snapshots written at any parallelism: for every key group
 * of the requested range it takes the manifest of the newest snapshot that has one. Nothing is
 * fetched until a key group is first accessed. Key groups restored from a {@linkplain #copyTo copy}
 * (a savepoint) are claimed first: see {@link SnapshotCopies}.
 *
 * <p>Retention (contract C8): the {@link SharedFileRegistry} counts, per object, the retained
 * snapshots that reference it — those this factory's backends wrote and those
 * {@linkplain #retain retained} — and {@linkplain #release deletes} an object when the last of them
 * is released. Shared SSTs are named by content under {@code {job}/state/shared/}, so the
 * snapshots of all operators of a job may share them.
 */
public final class ForstStateBackendFactory implements StateBackendFactory, AutoCloseable {
  public static final String NAME = "forst";

  private final ForstEnvironment env;

  private ForstStateBackendFactory(ForstConfig config) {
    this.env = new ForstEnvironment(config);
  }

  /** What this factory's backends share (tests reach its thread pools). */
  ForstEnvironment environment() {
    return env;
  }

  /** A factory for the given configuration. */
  public static ForstStateBackendFactory fromConfig(ForstConfig config) {
    return new ForstStateBackendFactory(config);
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public KeyedStateBackend create(String jobName, String operatorId, KeyGroupRange range, int maxParallelism) {
    return cached(new ForstKeyedStateBackend(env, new StateNames(jobName, operatorId), range, maxParallelism,
        Map.of()));
  }

  /**
   * {@inheritDoc}
   *
   * @throws IllegalArgumentException if a snapshot was not written by this backend kind
   */
  @Override
  public KeyedStateBackend restore(String jobName, String operatorId, KeyGroupRange range, int maxParallelism,
      List<StateSnapshot> snapshots) {
    StateNames names = new StateNames(jobName, operatorId);
    ShardRestorer restorer = new ShardRestorer(env);
    Map<Integer, StateSnapshot> newest = new HashMap<>();
    for (StateSnapshot s : snapshots) {
      checkBackend(s, "restored");
      for (Integer g : s.manifests().keySet()) {
        StateSnapshot prev = newest.get(g);
        if (range.contains(g) && (prev == null || prev.checkpointId() < s.checkpointId())) {
          newest.put(g, s);
        }
      }
    }
    Map<Integer, RestoredGroup> groups = new HashMap<>();
    SnapshotCopies.Claim claim = new SnapshotCopies.Claim(env, names, range);
    newest.forEach((g, s) -> {
      String manifest = s.manifests().get(g);
      groups.put(g, SnapshotCopies.isCopy(names, manifest)
          ? new RestoredGroup(g, claim.manifestName(g), claim.registryId(), () -> claim.claim(g, manifest, restorer))
          : new RestoredGroup(g, manifest, names.snapshotId(s), restorer));
    });
    return cached(new ForstKeyedStateBackend(env, names, range, maxParallelism, groups));
  }

  /**
   * {@inheritDoc}
   *
   * <p>See {@link SnapshotCopies} for the layout. Copies run on the transfer threads. A backend
   * restored from the copy claims each key group it restores (copies its files back under the job's
   * own names) when it first needs it, at the latest in its first snapshot.
   */
  @Override
  public StateSnapshot copyTo(String jobName, String operatorId, StateSnapshot snapshot, String directory) {
    checkBackend(snapshot, "copied");
    return new SnapshotCopies(env).copyTo(new StateNames(jobName, operatorId), snapshot, directory);
  }

  /** {@code b} behind the state cache, unless the configuration disables it. */
  private KeyedStateBackend cached(ForstKeyedStateBackend b) {
    long entries = env.config.stateCacheEntries();
    return entries == 0 ? b : new CachingKeyedStateBackend(b, entries, env.stateCacheHits, env.stateCacheMisses);
  }

  /**
   * {@inheritDoc}
   *
   * <p>Reads the snapshot's shard manifests (one small object per key group, in parallel on the
   * transfer threads) and registers the manifests and every object they reference under the
   * snapshot's registry id, the one its own backends register their snapshots under. A backend
   * restored from a snapshot registers the files of its restored key groups under that same id
   * before its first snapshot, so a snapshot both retained and restored from is counted once.
   *
   * @throws ForstStateException if a manifest cannot be read; nothing is registered then
   */
  @Override
  public void retain(String jobName, String operatorId, StateSnapshot snapshot) {
    checkBackend(snapshot, "retained");
    List<String> objects = new ShardRestorer(env).objectsOf(snapshot.manifests().values());
    env.registry.register(new StateNames(jobName, operatorId).snapshotId(snapshot), objects);
  }

  /**
   * {@inheritDoc}
   *
   * <p>Failed deletions are retried by every later release, and by {@link SharedFileRegistry#sweep}.
   */
  @Override
  public List<String> release(String jobName, String operatorId, StateSnapshot snapshot) {
    return env.registry.release(new StateNames(jobName, operatorId).snapshotId(snapshot));
  }

  private static void checkBackend(StateSnapshot s, String what) {
    if (!NAME.equals(s.backend())) {
      throw new IllegalArgumentException("snapshot " + s.checkpointId() + " was written by the '"
          + s.backend() + "' backend and cannot be " + what + " by '" + NAME + "'");
    }
  }

  /** The registry of files referenced by retained snapshots, for rebuilding after a restart. */
  public SharedFileRegistry registry() {
    return env.registry;
  }

  /** Current counters of this process. */
  public ForstMetrics metrics() {
    return env.metrics();
  }

  /** Releases native memory, the file cache and the transfer threads; close every backend first. */
  @Override
  public void close() {
    env.close();
  }
}
