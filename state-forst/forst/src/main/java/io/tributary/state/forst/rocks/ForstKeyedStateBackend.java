package io.tributary.state.forst.rocks;

import io.tributary.state.Combiner;
import io.tributary.state.Key;
import io.tributary.state.KeyGroupRange;
import io.tributary.state.KeyGroups;
import io.tributary.state.KeyedStateBackend;
import io.tributary.state.ListState;
import io.tributary.state.MapState;
import io.tributary.state.StateCodec;
import io.tributary.state.StateSnapshot;
import io.tributary.state.ValueState;
import io.tributary.state.WindowState;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * Keyed state on RocksDB, one instance ("shard") per key group, with durable copies in an object
 * store (contracts C5–C8).
 *
 * <p>Shards open on first access to their key group (a new one on the first write: reading a key
 * group that has no state opens nothing); a restored one first fetches its files (only its own:
 * C7). {@link #snapshot} logs or materializes every shard that changed (on the calling thread it
 * only takes the logs and starts the flushes) and uploads asynchronously; a shard that did not
 * change, or was never accessed since the restore, is referenced by its previous manifest without
 * any I/O. The local directory is a cache: closing the backend deletes it.
 *
 * <p>State handles are keyed by name; asking again for a name returns the same handle, asking for
 * it as another kind is refused. Used by one thread at a time (the task thread).
 */
public final class ForstKeyedStateBackend implements KeyedStateBackend {
  private final ForstEnvironment env;
  private final StateNames names;
  private final KeyGroupRange range;
  private final int maxParallelism;
  private final Path workDir;
  private final Path stagingDir;
  private final Shard[] shards;
  private final RestoredGroup[] restored;
  private final ShardRestorer restorer;
  private final SnapshotWriter writer;
  private final RestoredRegistration restoredRegistration;
  private final Map<String, ForstState> states = new LinkedHashMap<>();
  private final Map<String, ForstTimerQueue<?>> timerQueues = new java.util.HashMap<>();
  private Key currentKey;
  private int currentIndex = -1;
  private long keyVersion;
  private Shard currentShard;
  private boolean closed;
  /** Bytes each shard may log between two snapshots (0: no logging); see {@link #LOG_MEMORY}. */
  private final int logLimit;
  /**
   * Heap for change logs between two snapshots per backend, split evenly among its key groups (at
   * least {@link #MIN_LOG_LIMIT} each): a shard that logs more is materialized by the next snapshot.
   */
  static final long LOG_MEMORY = 64L << 20;
  static final long MIN_LOG_LIMIT = 256L << 10;
  /** Restored shards being opened in the background, by index; null once taken. */
  private final Opening[] opening;

  ForstKeyedStateBackend(ForstEnvironment env, StateNames names, KeyGroupRange range, int maxParallelism,
      Map<Integer, RestoredGroup> restoredGroups) {
    checkRange(range, maxParallelism);
    this.env = env;
    this.names = names;
    this.range = range;
    this.maxParallelism = maxParallelism;
    String instance = UUID.randomUUID().toString();
    this.workDir = env.workDir().resolve(instance);
    this.stagingDir = env.config.localDir().resolve("staging").resolve(instance);
    this.shards = new Shard[range.size()];
    this.restored = new RestoredGroup[range.size()];
    restoredGroups.forEach((g, r) -> restored[g - range.start()] = r);
    this.restorer = new ShardRestorer(env);
    this.writer = new SnapshotWriter(env, names);
    this.restoredRegistration = new RestoredRegistration(env.registry, restoredGroups.values());
    this.opening = new Opening[range.size()];
    this.logLimit = env.config.changeLog() ? (int) Math.max(MIN_LOG_LIMIT, LOG_MEMORY / range.size()) : 0;
    prefetch();
  }

  /**
   * Starts opening every restored shard in the background, several at once: a restored window
   * operator touches all its key groups within its first records, and opening them one after
   * another on the task thread would hold processing back for seconds. Restore itself still returns
   * at once (C7); the first access to a key group waits only for that group.
   */
  private void prefetch() {
    for (int i = 0; i < restored.length && env.config.prefetchOnRestore(); i++) {
      if (restored[i] != null) {
        startOpening(i);
      }
    }
  }

  /**
   * The shard at {@code index} once its opening finished, or null if none was started. With
   * {@code takeOver}, an opening that no pool thread has taken up yet runs here, at once and with its
   * files fetched ahead of every queued one: the caller (the task thread, for a record of that key
   * group) would otherwise wait behind the opening of every other restored key group.
   */
  private Shard awaitOpening(int index, boolean takeOver) {
    Opening o = opening[index];
    if (o == null) {
      return null;
    }
    opening[index] = null;
    if (takeOver) {
      o.run(true);
    }
    try {
      return o.result.join();
    } catch (java.util.concurrent.CompletionException e) {
      throw e.getCause() instanceof RuntimeException r ? r : e;
    }
  }

  /**
   * The opening of one shard: queued on the shard pool, and run by whichever comes first, a pool
   * thread or a caller that needs the shard now ({@link #awaitOpening}).
   */
  private final class Opening {
    private final int index;
    private final java.util.concurrent.atomic.AtomicBoolean taken = new java.util.concurrent.atomic.AtomicBoolean();
    final CompletableFuture<Shard> result = new CompletableFuture<>();

    Opening(int index) {
      this.index = index;
    }

    /** Opens the shard unless that was taken up already; {@code urgent}: fetch ahead of queued openings. */
    void run(boolean urgent) {
      if (!taken.compareAndSet(false, true)) {
        return;
      }
      try {
        result.complete(openShard(index, urgent));
      } catch (Throwable t) {
        result.completeExceptionally(t);
      }
    }

    /** Drops the opening if nothing took it up yet; true if so (no shard will exist). */
    boolean cancel() {
      if (taken.compareAndSet(false, true)) {
        result.complete(null);
        return true;
      }
      return false;
    }
  }

  ShardRestorer restorer() {
    return restorer;
  }

  @Override
  public KeyGroupRange keyGroupRange() {
    return range;
  }

  @Override
  public int maxParallelism() {
    return maxParallelism;
  }

  /**
   * {@inheritDoc}
   *
   * @throws IllegalArgumentException when the key's group is not in this backend's range
   */
  @Override
  public void setCurrentKey(Key key) {
    checkOpen();
    if (key == currentKey) {
      return;
    }
    int group = key.keyGroup(maxParallelism);
    if (!range.contains(group)) {
      throw new IllegalArgumentException("key " + key + " belongs to key group " + group
          + ", outside this backend's range " + range + " (maxParallelism " + maxParallelism
          + "): the record was routed to the wrong subtask");
    }
    if (group - range.start() != currentIndex) {
      currentIndex = group - range.start();
      currentShard = null;
    }
    currentKey = key;
    keyVersion++;
  }

  @Override
  public Key currentKey() {
    return currentKey;
  }

  /** Changes whenever the current key does; states rebuild their cached key prefix then. */
  long keyVersion() {
    return keyVersion;
  }

  /**
   * The shard of the current key for a read or a deletion: null when its key group has no state
   * (it was neither restored nor written to), so reading nothing opens no RocksDB instance.
   */
  Shard currentShardIfAny() {
    if (currentShard == null && currentIndex >= 0 && shards[currentIndex] == null && restored[currentIndex] == null) {
      checkOpen();
      return null;
    }
    return currentShard();
  }

  /** The shard of the current key if it is open; null otherwise (nothing is opened). */
  Shard currentShardIfOpen() {
    if (currentShard == null && currentIndex >= 0) {
      checkOpen();
      currentShard = shards[currentIndex];
    }
    return currentShard;
  }

  /**
   * Whether the current key's group, whose shard is not open, may hold state: only if it was
   * restored. A new shard (one opening in the background included) holds only what was written
   * through {@link #currentShard}, which opens it.
   */
  boolean currentGroupMayHoldState() {
    if (currentIndex < 0) {
      throw new IllegalStateException("no current key: call setCurrentKey before using state");
    }
    return restored[currentIndex] != null;
  }

  /** The shard of the current key, opened (and fetched, if restored) on first access. */
  Shard currentShard() {
    Shard s = currentShard;
    if (s == null) {
      if (currentIndex < 0) {
        throw new IllegalStateException("no current key: call setCurrentKey before using state");
      }
      s = shardAt(currentIndex);
      currentShard = s;
    }
    return s;
  }

  /** The shard of key group {@code range.start() + index}, opened (and fetched, if restored) on first access. */
  Shard shardAt(int index) {
    checkOpen();
    Shard s = shards[index];
    if (s == null) {
      s = awaitOpening(index, true);
      if (s == null) {
        s = openShard(index, true);
      }
      shards[index] = s;
    }
    return s;
  }

  /**
   * Like {@link #shardAt} for reads and deletions: null when the key group has no state (it was
   * neither restored nor written to), and then nothing is opened.
   */
  Shard shardIfAny(int index) {
    checkOpen();
    return shards[index] == null && restored[index] == null ? null : shardAt(index);
  }

  /** Whether key group {@code range.start() + index} was restored (its shard may hold state written before). */
  boolean restored(int index) {
    return restored[index] != null;
  }

  /**
   * The index of {@code key}'s group in this backend's range.
   *
   * @throws IllegalArgumentException when the key's group is not in the range
   */
  int indexOf(Key key) {
    int group = key.keyGroup(maxParallelism);
    if (!range.contains(group)) {
      throw new IllegalArgumentException("key " + key + " belongs to key group " + group
          + ", outside this backend's range " + range + " (maxParallelism " + maxParallelism + ")");
    }
    return group - range.start();
  }

  /**
   * Opens, several at once, the shards of the key groups of {@code keys} that are not open yet, so
   * that writing many key groups at once (a cache flush before a snapshot) does not open them one
   * after another on the task thread.
   */
  public void openShards(Iterable<Key> keys) {
    checkOpen();
    java.util.Set<Integer> missing = new java.util.TreeSet<>();
    for (Key k : keys) {
      int index = k.keyGroup(maxParallelism) - range.start();
      if (index >= 0 && index < shards.length && shards[index] == null) {
        missing.add(index);
      }
    }
    for (int index : missing) {
      startOpening(index);
    }
    RuntimeException failure = null;
    for (int index : missing) {
      try {
        shards[index] = awaitOpening(index, false); // the pool opens them in parallel
      } catch (RuntimeException e) {
        failure = failure == null ? e : failure;
      }
    }
    currentShard = null; // re-resolved from shards[] on next access
    if (failure != null) {
      throw failure;
    }
  }

  /**
   * Starts opening the current key's shard in the background, unless it is open or opening: the
   * caller is about to write to it, later (a write-back cache), and opening a shard takes a few
   * milliseconds of file creation that the task thread need not wait for.
   */
  public void prepareCurrentShard() {
    if (currentIndex >= 0 && !closed && shards[currentIndex] == null) {
      startOpening(currentIndex);
    }
  }

  /** Starts opening the restored shard {@code index} in the background, unless it is open or opening. */
  void startOpeningRestored(int index) {
    if (!closed && shards[index] == null && restored[index] != null) {
      startOpening(index);
    }
  }

  /** Starts opening shard {@code index} on the shard pool, unless that already started. */
  private void startOpening(int index) {
    if (opening[index] == null) {
      Opening o = new Opening(index);
      opening[index] = o;
      env.shardCheckpoints.execute(() -> o.run(false));
    }
  }

  private Shard openShard(int index, boolean urgent) {
    int group = range.start() + index;
    Path dir = workDir.resolve("kg-" + group);
    RestoredGroup r = restored[index];
    long t0 = System.nanoTime();
    Shard s;
    if (r == null) {
      s = Shard.open(env.rocks, env.shardCheckpoints, env.keyListings, env.applier, group, dir, null, null, logLimit);
    } else {
      s = restorer.open(group, r.manifestName(), r.manifest(), dir, logLimit, urgent);
    }
    env.shardsOpened.increment();
    env.shardOpenNanos.add(System.nanoTime() - t0);
    return s;
  }

  @Override
  public <T> ValueState<T> valueState(String name, StateCodec<T> codec) {
    return register(name, ForstValueState.class, () -> new ForstValueState<>(this, name, codec));
  }

  @Override
  public <K, V> MapState<K, V> mapState(String name, StateCodec<K> keyCodec, StateCodec<V> valueCodec,
      Combiner<V> combiner) {
    return register(name, ForstMapState.class,
        () -> new ForstMapState<>(this, name, keyCodec, valueCodec, combiner));
  }

  @Override
  public <T> ListState<T> listState(String name, StateCodec<T> codec) {
    return register(name, ForstListState.class, () -> new ForstListState<>(this, name, codec));
  }

  @Override
  public <W, A> WindowState<W, A> windowState(String name, StateCodec<W> windowCodec, StateCodec<A> accCodec,
      Combiner<A> combiner) {
    return register(name, ForstWindowState.class,
        () -> new ForstWindowState<>(this, name, windowCodec, accCodec, combiner));
  }

  /**
   * {@inheritDoc}
   *
   * <p>The timers live in the shards next to the state ({@link ForstTimerQueue}): they snapshot,
   * restore and rescale with it, and only the earliest few of each key group are on the heap. Null
   * when the configuration keeps timers out of the state ({@link ForstConfig#timersInState()}).
   */
  @Override
  @SuppressWarnings("unchecked")
  public <N> io.tributary.state.TimerQueue<N> timerQueue(String name, StateCodec<N> namespaceCodec) {
    checkOpen();
    if (!env.config.timersInState()) {
      return null;
    }
    return timerQueue(name, namespaceCodec, ForstTimerQueue.cacheSizeFor(range.size()));
  }

  /** The timer queue {@code name}, created with {@code cacheSize} timers cached per key group (tests). */
  @SuppressWarnings("unchecked")
  <N> io.tributary.state.TimerQueue<N> timerQueue(String name, StateCodec<N> namespaceCodec, int cacheSize) {
    checkOpen();
    return (io.tributary.state.TimerQueue<N>) timerQueues.computeIfAbsent(name,
        n -> new ForstTimerQueue<>(this, n, namespaceCodec, cacheSize));
  }

  @SuppressWarnings("unchecked")
  private <S> S register(String name, Class<?> kind, Supplier<? extends ForstState> create) {
    checkOpen();
    ForstState existing = states.get(name);
    if (existing == null) {
      existing = create.get();
      if (existing.stateId() == ForstTimerQueue.KEY_MARK) {
        throw new IllegalStateException("state name '" + name + "' hashes to the id reserved for timers; rename it");
      }
      for (ForstState other : states.values()) {
        if (other.stateId() == existing.stateId()) {
          throw new IllegalStateException("state names '" + name + "' and '" + other.name
              + "' hash to the same state id; rename one of them");
        }
      }
      states.put(name, existing);
    } else if (!kind.isInstance(existing)) {
      throw new IllegalStateException("state '" + name + "' already exists as "
          + existing.getClass().getSimpleName() + ", not " + kind.getSimpleName());
    }
    return (S) existing;
  }

  /** RocksDB's estimate over the opened shards; key groups not yet fetched after a restore count 0. */
  @Override
  public long approximateEntryCount() {
    long n = 0;
    for (Shard s : shards) {
      if (s != null) {
        n += s.estimatedKeys();
      }
    }
    return n;
  }

  /** Reads that reached RocksDB in the open shards (their key filters did not rule them out); for tests. */
  long rocksReads() {
    long n = 0;
    for (Shard s : shards) {
      if (s != null) {
        n += s.rocksReads();
      }
    }
    return n;
  }

  /**
   * {@inheritDoc}
   *
   * <p>A changed shard is snapshotted by its log (the writes since the previous snapshot, one
   * segment in this snapshot's change-log object; no RocksDB work at all) unless it is due for
   * materialization: then its memtable is flushed and its files taken as a whole (the calling
   * thread only starts the flush: {@link Shard#cut}), and its log starts anew. A
   * shard is due when its log since the last materialization grew past a quarter of its files (at
   * least {@link #MIN_LOG_BYTES}) or a few dozen segments, which bounds what a restore replays; at
   * most {@link #MAX_MATERIALIZATIONS} shards are materialized per snapshot, longest logs first, so
   * the work spreads over snapshots, and beyond that as many as keep the logs within
   * {@link #LOG_BUDGET}. A shard whose log overflowed, or whose earlier upload failed, is
   * materialized at once. Key groups without any state (never written, never restored) are
   * absent from the result. Timers cached on the heap and not written yet are written first.
   */
  @Override
  public CompletableFuture<StateSnapshot> snapshot(long checkpointId) {
    checkOpen();
    for (ForstTimerQueue<?> q : timerQueues.values()) {
      q.flush(); // the timers cached on the heap only: the snapshot holds every timer
    }
    List<SnapshotWriter.Taken> taken = new ArrayList<>();
    List<SnapshotWriter.Logged> logged = new ArrayList<>();
    List<SnapshotWriter.Reused> reused = new ArrayList<>();
    SnapshotWriter.Changes changes = new SnapshotWriter.Changes(names.changeLog(checkpointId, range),
        new byte[0], new CompletableFuture<>());
    List<CompletableFuture<?>> dependencies = new ArrayList<>();
    CompletableFuture<Void> linked;
    try {
      Set<Shard> materialize = dueForMaterialization();
      long written = 0;
      for (Shard s : shards) {
        written += s == null ? 0 : s.takeWrittenBytes();
      }
      env.bytesWritten.add(written);
      BytesOut log = new BytesOut(1024);
      for (int i = 0; i < shards.length; i++) {
        Shard s = collect(i, checkpointId, materialize, taken, reused, dependencies);
        if (s != null) {
          logged.add(logged(s, changes, log, dependencies));
        }
      }
      changes = new SnapshotWriter.Changes(changes.name(), log.toByteArray(), changes.durable());
      linked = materialize(taken);
    } catch (RuntimeException e) {
      SnapshotWriter.fail(taken, logged, changes, e);
      taken.forEach(t -> SnapshotWriter.deleteQuietly(t.dir()));
      throw e;
    }
    List<SnapshotWriter.Taken> t = taken;
    List<SnapshotWriter.Logged> l = logged;
    SnapshotWriter.Changes c = changes;
    CompletableFuture<Void> earlier = CompletableFuture.allOf(dependencies.toArray(new CompletableFuture<?>[0]));
    return CompletableFuture.allOf(earlier.exceptionally(x -> null), linked.exceptionally(x -> null))
        .thenApplyAsync(ignored -> {
          Throwable failure = failureOf(earlier);
          if (failure != null) {
            throw abandon(checkpointId, t, l, c, "builds on an earlier snapshot whose upload failed", failure);
          }
          failure = failureOf(linked);
          if (failure != null) {
            throw abandon(checkpointId, t, l, c, "could not take the files of the key groups it materialized", failure);
          }
          try {
            restoredRegistration.ensure();
          } catch (RuntimeException e) {
            throw abandon(checkpointId, t, l, c, "cannot register the restored files it references", e);
          }
          return writer.write(checkpointId, range, t, l, c, reused);
        }, env.transfers);
  }

  /** Log bytes a shard may accumulate before it is due, whatever the size of its files. */
  static final long MIN_LOG_BYTES = 1L << 20;
  /** Shards materialized per snapshot at most, unless they cannot log (overflow, failed upload). */
  static final int MAX_MATERIALIZATIONS = 8;

  /**
   * Log bytes (since their materializations) the open shards of a backend may hold in all: a
   * snapshot materializes the shards with the longest logs beyond {@link #MAX_MATERIALIZATIONS}
   * until they are below it. This bounds what a restore replays (C7) when state grows fast, when
   * every shard's log grows by much every snapshot.
   */
  static final long LOG_BUDGET = 64L << 20;

  /** The open shards this snapshot materializes (see {@link #snapshot}). */
  private Set<Shard> dueForMaterialization() {
    Set<Shard> due = new HashSet<>();
    List<Shard> candidates = new ArrayList<>();
    List<Shard> logging = new ArrayList<>();
    long logged = 0;
    for (Shard s : shards) {
      if (s == null || s.reusable()) {
        continue;
      }
      logging.add(s);
      logged += s.logBytesSinceMaterialization();
      long maxLog = Math.max(MIN_LOG_BYTES, s.baseBytes() / 4);
      // spread over snapshots: shards written alike reach their segment limits at different times
      int maxSegments = 24 + Math.floorMod(s.keyGroup(), 16);
      if (s.mustMaterialize()) {
        due.add(s);
      } else if (s.logReached(maxLog, maxSegments)) {
        candidates.add(s);
      }
    }
    Comparator<Shard> longestLogFirst = Comparator.comparingLong(Shard::logBytesSinceMaterialization).reversed();
    candidates.sort(longestLogFirst);
    for (int i = 0; i < candidates.size() && i < MAX_MATERIALIZATIONS; i++) {
      due.add(candidates.get(i));
    }
    for (Shard s : due) {
      logged -= s.logBytesSinceMaterialization();
    }
    logging.sort(longestLogFirst);
    for (int i = 0; i < logging.size() && logged > LOG_BUDGET; i++) {
      if (due.add(logging.get(i))) {
        logged -= logging.get(i).logBytesSinceMaterialization();
      }
    }
    return due;
  }

  /**
   * Takes a shard's new writes into the change-log object being built and describes its manifest:
   * its base and log so far plus the new segment. The snapshot's upload waits for the uploads that
   * made the base and the earlier segments durable ({@code dependencies}).
   */
  private SnapshotWriter.Logged logged(Shard s, SnapshotWriter.Changes changes, BytesOut log,
      List<CompletableFuture<?>> dependencies) {
    if (!s.base().isDone()) {
      dependencies.add(s.base());
    }
    for (Shard.Logged earlier : s.log()) {
      if (!earlier.durable().isDone()) {
        dependencies.add(earlier.durable());
      }
    }
    byte[] bytes = s.takeChanges();
    if (bytes.length > 0) {
      s.logged(new ShardManifest.LogSegment(changes.name(), log.size(), bytes.length), changes.durable());
      log.write(bytes);
    }
    List<ShardManifest.LogSegment> segments = new ArrayList<>(s.log().size());
    for (Shard.Logged l : s.log()) {
      segments.add(l.segment());
    }
    s.uploadStarted();
    return new SnapshotWriter.Logged(s, s.base(), segments);
  }

  /**
   * Adds shard {@code i} to {@code reused} or {@code taken}; returns it when it is to be logged
   * instead.
   */
  private Shard collect(int i, long checkpointId, Set<Shard> materialize,
      List<SnapshotWriter.Taken> taken, List<SnapshotWriter.Reused> reused, List<CompletableFuture<?>> dependencies) {
    Shard s = shards[i];
    if (s == null) {
      if (restored[i] != null) {
        reused.add(restored[i]);
      }
      return null;
    }
    if (!materialize.contains(s)) {
      if (s.reusable()) {
        reused.add(new ReusedShard(s.keyGroup(), s.manifestName(), s.manifest()));
        return null;
      }
      return s;
    }
    if (!s.base().isDone()) {
      // the previous materialization still uploads (its checkpoint was aborted): the files this one
      // shares with it are not registered as new here, so this snapshot waits until that upload ended;
      // if it failed, its files were released and this one registers and uploads them itself
      dependencies.add(s.base().handle((files, failure) -> null));
    }
    Path dir = stagingDir.resolve("chk-" + checkpointId + "-kg-" + s.keyGroup());
    SnapshotWriter.deleteQuietly(dir);
    dir.getParent().toFile().mkdirs();
    s.uploadStarted();
    CompletableFuture<List<ShardManifest.ShardFile>> files = new CompletableFuture<>();
    s.materialized(files);
    taken.add(new SnapshotWriter.Taken(s, dir, files));
    return null;
  }

  /**
   * Ends a snapshot that cannot be written: its shards' futures fail (the next snapshots of these
   * shards wait for them), its staging directories go; returns the exception saying {@code why}.
   */
  private ForstStateException abandon(long checkpointId, List<SnapshotWriter.Taken> taken,
      List<SnapshotWriter.Logged> logged, SnapshotWriter.Changes changes, String why, Throwable cause) {
    SnapshotWriter.fail(taken, logged, changes, cause);
    taken.forEach(x -> SnapshotWriter.deleteQuietly(x.dir()));
    return new ForstStateException("snapshot " + checkpointId + " of " + names.job() + "/" + names.operator() + " "
        + why, cause);
  }

  /** The failure {@code f} (done) completed with, unwrapped; null when it succeeded. */
  private static Throwable failureOf(CompletableFuture<?> f) {
    try {
      f.join();
      return null;
    } catch (java.util.concurrent.CompletionException e) {
      return e.getCause() != null ? e.getCause() : e;
    } catch (java.util.concurrent.CancellationException e) {
      return e;
    }
  }

  /**
   * Materializes the shards {@code taken}, the task thread waiting only for their cuts: each shard
   * starts flushing its memtable and its files are linked into its staging directory in the
   * background once the flush is done ({@link Shard#cut}); the result completes then. A shard
   * whose last cut failed is flushed and checkpointed while the task thread waits, several at once
   * (each is a few fsyncs), as every shard was before; before the other shards start their flushes,
   * so that its flush does not queue behind them.
   */
  private CompletableFuture<Void> materialize(List<SnapshotWriter.Taken> taken) {
    List<CompletableFuture<Void>> waited = new ArrayList<>();
    List<SnapshotWriter.Taken> cuts = new ArrayList<>(taken.size());
    for (SnapshotWriter.Taken t : taken) {
      Shard s = t.shard();
      if (s.cutFailed()) {
        waited.add(CompletableFuture.runAsync(() -> s.checkpoint(t.dir()), env.shardCheckpoints));
      } else {
        cuts.add(t);
      }
    }
    try {
      CompletableFuture.allOf(waited.toArray(new CompletableFuture<?>[0])).join();
    } catch (java.util.concurrent.CompletionException e) {
      throw e.getCause() instanceof RuntimeException r ? r : e;
    }
    List<CompletableFuture<Void>> running = new ArrayList<>(cuts.size());
    for (SnapshotWriter.Taken t : cuts) {
      running.add(t.shard().cut(t.dir()));
    }
    return CompletableFuture.allOf(running.toArray(new CompletableFuture<?>[0]));
  }

  /** A shard unchanged since its last manifest. */
  private record ReusedShard(int keyGroup, String manifestName, ShardManifest manifest)
      implements SnapshotWriter.Reused {}

  /** Closes every shard and deletes the local working directory (it is only a cache: C5). */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    for (int i = 0; i < opening.length; i++) {
      Opening o = opening[i];
      opening[i] = null;
      if (o != null && !o.cancel()) {
        try {
          shards[i] = o.result.join();
        } catch (RuntimeException e) {
          // never used: nothing to close
        }
      }
    }
    closeShards();
    states.clear();
    timerQueues.clear();
    currentShard = null;
    currentKey = null;
    deleteInBackground(workDir);
  }

  /**
   * Moves {@code dir} aside and deletes it on a transfer thread: a restart need not wait for
   * thousands of unlinks (C5: it is only a cache; what is left if the process dies first goes with
   * the local directory).
   */
  private void deleteInBackground(Path dir) {
    Path aside = dir.resolveSibling(dir.getFileName() + ".deleted");
    try {
      java.nio.file.Files.move(dir, aside, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    } catch (java.io.IOException | RuntimeException e) {
      SnapshotWriter.deleteQuietly(dir);
      return;
    }
    try {
      env.transfers.execute(() -> SnapshotWriter.deleteQuietly(aside));
    } catch (java.util.concurrent.RejectedExecutionException e) {
      SnapshotWriter.deleteQuietly(aside);
    }
  }

  /**
   * Closes the open shards, several at once (closing a RocksDB instance waits for its background
   * work, and a restart waits for all of them): the pool's threads and this one take shards from a
   * queue, so this waits only for closes in progress, never for pool threads busy elsewhere.
   */
  private void closeShards() {
    java.util.Queue<Shard> left = new java.util.concurrent.ConcurrentLinkedQueue<>();
    for (int i = 0; i < shards.length; i++) {
      if (shards[i] != null) {
        left.add(shards[i]);
        shards[i] = null;
      }
    }
    java.util.concurrent.CountDownLatch closed = new java.util.concurrent.CountDownLatch(left.size());
    Runnable drain = () -> {
      for (Shard s; (s = left.poll()) != null; ) {
        try {
          s.close();
        } catch (RuntimeException e) {
          // a shard that fails to close leaves only local files, deleted next (C5)
        } finally {
          closed.countDown();
        }
      }
    };
    for (int i = 1; i < Math.min(left.size(), ForstEnvironment.SHARD_CHECKPOINT_THREADS); i++) {
      env.shardCheckpoints.execute(drain);
    }
    drain.run();
    try {
      closed.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("state backend is closed");
    }
  }

  private static void checkRange(KeyGroupRange range, int maxParallelism) {
    if (maxParallelism < 1 || maxParallelism > KeyGroups.UPPER_BOUND_MAX_PARALLELISM) {
      throw new IllegalArgumentException("maxParallelism must be in [1, "
          + KeyGroups.UPPER_BOUND_MAX_PARALLELISM + "], got " + maxParallelism);
    }
    if (range.end() > maxParallelism) {
      throw new IllegalArgumentException("key group range " + range + " exceeds maxParallelism " + maxParallelism);
    }
  }
}
