package io.tributary.state.heap;

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
import io.tributary.state.heap.HeapSnapshotFormat.Section;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * Keyed state kept as Java objects on the heap: the fast backend for tests, small jobs and the
 * embedded default.
 *
 * <p>Every state is organised per key group, in an array indexed by {@code keyGroup - range.start},
 * so that a later rescale can hand whole key groups to another owner. Values are kept as the
 * objects given (codecs are never called on the hot path); callers may therefore mutate an
 * accumulator in place, though code meant for every backend puts it back after a change.
 *
 * <p>A state name denotes one state: asking again for the same name and kind returns the same
 * handle; asking for it with another kind is refused. Used by one thread at a time.
 *
 * <p><b>Snapshots</b> (only for backends made by a {@link HeapStateBackendFactory} with an object
 * store): {@link #snapshot} serializes every non-empty key group with the states' codecs on the
 * calling thread, so the live objects may change as soon as it returns, and uploads one object
 * per key group ({@link HeapSnapshotFormat}) on the factory's upload threads.
 *
 * <p><b>Restore</b> is lazy (contract C7): a key group's object is fetched the first time a key of
 * that group becomes current, and a state's entries in it are decoded when the operator asks for
 * the state (the codecs are known only then); until then they stay serialized, and a snapshot
 * writes them back unchanged. A key group never accessed since the restore is not fetched at all:
 * a snapshot refers to the object it was restored from (C6), and the factory keeps that object as
 * long as a retained snapshot refers to it (see {@link HeapStateBackendFactory#release}).
 */
public final class HeapKeyedStateBackend implements KeyedStateBackend {
  private final KeyGroupRange range;
  private final int maxParallelism;
  private final Map<String, HeapState> states = new LinkedHashMap<>();
  /** Null when this backend cannot snapshot. */
  private final HeapStorage storage;
  /** Per key group index, the restored object not fetched yet; null when nothing was restored. */
  private String[] unfetched;
  /** State name to its fetched but undecoded sections, by key group index. */
  private final Map<String, Map<Integer, Section>> undecoded = new HashMap<>();
  private Key currentKey;
  private int currentGroupIndex = -1;
  private boolean closed;

  /**
   * A backend for the key groups {@code range} among {@code maxParallelism}.
   *
   * @throws IllegalArgumentException when the range does not fit in {@code [0, maxParallelism)}
   */
  public HeapKeyedStateBackend(KeyGroupRange range, int maxParallelism) {
    this(range, maxParallelism, null, Map.of());
  }

  /**
   * A backend that snapshots to {@code storage} (if not null) and starts from the objects
   * {@code restored} (key group to object name; groups outside {@code range} are ignored).
   */
  HeapKeyedStateBackend(KeyGroupRange range, int maxParallelism, HeapStorage storage,
      Map<Integer, String> restored) {
    if (maxParallelism < 1 || maxParallelism > KeyGroups.UPPER_BOUND_MAX_PARALLELISM) {
      throw new IllegalArgumentException("maxParallelism must be in [1, "
          + KeyGroups.UPPER_BOUND_MAX_PARALLELISM + "], got " + maxParallelism);
    }
    if (range.end() > maxParallelism) {
      throw new IllegalArgumentException(
          "key group range " + range + " exceeds maxParallelism " + maxParallelism);
    }
    this.range = range;
    this.maxParallelism = maxParallelism;
    this.storage = storage;
    restored.forEach((group, object) -> {
      if (range.contains(group)) {
        if (unfetched == null) {
          unfetched = new String[range.size()];
        }
        unfetched[group - range.start()] = object;
      }
    });
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
    int group = key.keyGroup(maxParallelism);
    if (!range.contains(group)) {
      throw new IllegalArgumentException("key " + key + " belongs to key group " + group
          + ", outside this backend's range " + range + " (maxParallelism " + maxParallelism
          + "): the record was routed to the wrong subtask");
    }
    int index = group - range.start();
    if (unfetched != null && unfetched[index] != null) {
      fetch(index);
    }
    currentKey = key;
    currentGroupIndex = index;
  }

  @Override
  public Key currentKey() {
    return currentKey;
  }

  /** Index of the current key's group in the per-key-group arrays. */
  int currentGroupIndex() {
    if (currentGroupIndex < 0) {
      throw new IllegalStateException("no current key: call setCurrentKey before using state");
    }
    return currentGroupIndex;
  }

  @Override
  public <T> ValueState<T> valueState(String name, StateCodec<T> codec) {
    return register(name, HeapStateKind.VALUE, () -> new HeapValueState<T>(this, codec));
  }

  @Override
  public <K, V> MapState<K, V> mapState(
      String name, StateCodec<K> keyCodec, StateCodec<V> valueCodec, Combiner<V> combiner) {
    return register(name, HeapStateKind.MAP, () -> new HeapMapState<K, V>(this, keyCodec, valueCodec, combiner));
  }

  @Override
  public <T> ListState<T> listState(String name, StateCodec<T> codec) {
    return register(name, HeapStateKind.LIST, () -> new HeapListState<T>(this, codec));
  }

  @Override
  public <W, A> WindowState<W, A> windowState(
      String name, StateCodec<W> windowCodec, StateCodec<A> accCodec, Combiner<A> combiner) {
    return register(name, HeapStateKind.WINDOW,
        () -> new HeapWindowState<W, A>(this, windowCodec, accCodec, combiner));
  }

  /**
   * The state {@code name}, created on first use with {@code create} and given the restored entries
   * that waited for its codecs.
   *
   * @throws IllegalStateException when {@code name} exists (or was snapshotted) as another kind
   */
  @SuppressWarnings("unchecked")
  private <S> S register(String name, HeapStateKind kind, Supplier<? extends HeapState> create) {
    checkOpen();
    HeapState existing = states.get(name);
    if (existing == null) {
      Map<Integer, Section> restored = undecoded.remove(name);
      existing = create.get();
      if (restored != null) {
        for (Map.Entry<Integer, Section> e : restored.entrySet()) {
          decode(e.getValue(), existing, e.getKey());
        }
      }
      states.put(name, existing);
    } else if (existing.kind() != kind) {
      throw new IllegalStateException("state '" + name + "' already exists as " + existing.kind()
          + " state, not " + kind);
    }
    return (S) existing;
  }

  /**
   * {@inheritDoc}
   *
   * <p>Counts entries restored but not decoded yet; does not count key groups not fetched yet.
   */
  @Override
  public long approximateEntryCount() {
    long n = 0;
    for (HeapState s : states.values()) {
      n += s.entryCount();
    }
    for (Map<Integer, Section> sections : undecoded.values()) {
      for (Section s : sections.values()) {
        n += s.entries();
      }
    }
    return n;
  }

  /**
   * {@inheritDoc}
   *
   * <p>The snapshot lists one object per key group with state; key groups never accessed since a
   * restore keep the object they were restored from. Once the future completes, the snapshot is
   * retained by the factory (see {@link HeapStateBackendFactory#release}); if it fails, what it
   * wrote is deleted again.
   *
   * @throws UnsupportedOperationException when the backend was not made by a factory with an
   *     object store
   * @throws java.util.concurrent.RejectedExecutionException when that factory is closed
   */
  @Override
  public CompletableFuture<StateSnapshot> snapshot(long checkpointId) {
    checkOpen();
    if (storage == null) {
      throw new UnsupportedOperationException("this heap state backend cannot snapshot: it has no object "
          + "store (create it through new HeapStateBackendFactory(objectStore))");
    }
    Map<Integer, byte[]> serialized = new TreeMap<>();
    Map<Integer, String> kept = new TreeMap<>();
    try {
      for (int i = 0; i < range.size(); i++) {
        int group = range.start() + i;
        if (unfetched != null && unfetched[i] != null) {
          kept.put(group, unfetched[i]);
        } else {
          List<Section> sections = sections(i);
          if (!sections.isEmpty()) {
            serialized.put(group, HeapSnapshotFormat.encode(group, sections));
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot serialize heap state for checkpoint " + checkpointId, e);
    }
    HeapStorage target = storage;
    KeyGroupRange snapshotRange = range;
    return CompletableFuture.supplyAsync(
        () -> upload(target, checkpointId, snapshotRange, serialized, kept), storage.uploads());
  }

  /** The non-empty sections of key group index {@code i}: decoded states, then undecoded ones. */
  private List<Section> sections(int i) throws IOException {
    List<Section> sections = new ArrayList<>();
    for (Map.Entry<String, HeapState> e : states.entrySet()) {
      if (e.getValue().entryCount(i) > 0) {
        sections.add(HeapSnapshotFormat.section(e.getKey(), e.getValue(), i));
      }
    }
    for (Map<Integer, Section> byGroup : undecoded.values()) {
      Section s = byGroup.get(i);
      if (s != null) {
        sections.add(s);
      }
    }
    return sections;
  }

  /**
   * The asynchronous half of a snapshot: touches nothing of the backend. The snapshot's objects are
   * counted as retained before anything is written, so no release deletes them meanwhile; if the
   * snapshot fails, that retention ends and what it wrote is deleted.
   */
  private static StateSnapshot upload(HeapStorage storage, long checkpointId, KeyGroupRange range,
      Map<Integer, byte[]> serialized, Map<Integer, String> kept) {
    Map<Integer, String> objects = new TreeMap<>(kept);
    serialized.keySet().forEach(group -> objects.put(group, storage.objectName(checkpointId, group)));
    RetainedObjects.SnapshotId id = storage.snapshotId(checkpointId, range);
    storage.retained().register(id, objects.values());
    long uploaded = 0;
    long total = 0;
    boolean written = false;
    try {
      for (Map.Entry<Integer, byte[]> e : serialized.entrySet()) {
        storage.store().put(objects.get(e.getKey()), e.getValue());
        uploaded += e.getValue().length;
      }
      total = uploaded;
      for (String name : kept.values()) {
        long size = storage.store().size(name);
        if (size < 0) {
          throw new IOException("object '" + name + "' this snapshot keeps from its restore is missing");
        }
        total += size;
      }
      written = true;
    } catch (IOException e) {
      throw new UncheckedIOException("heap state snapshot " + checkpointId + " of " + storage.job() + "/"
          + storage.operator() + " failed", e);
    } finally {
      if (!written) {
        storage.retained().release(id);
      }
    }
    return new StateSnapshot(HeapStateBackendFactory.NAME, checkpointId, range, objects, total, uploaded);
  }

  /** Fetches the restored object of key group index {@code i}; decodes the states already asked for. */
  private void fetch(int i) {
    int group = range.start() + i;
    String name = unfetched[i];
    byte[] object;
    try {
      object = storage.store().getBytes(name);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot fetch heap state of key group " + group + " from '" + name + "'", e);
    }
    List<Section> sections;
    try {
      sections = HeapSnapshotFormat.decode(object, group);
    } catch (IOException e) {
      throw new IllegalStateException("corrupt heap state object '" + name + "': " + e.getMessage(), e);
    }
    unfetched[i] = null;
    for (Section s : sections) {
      HeapState state = states.get(s.name());
      if (state != null) {
        decode(s, state, i);
      } else {
        undecoded.computeIfAbsent(s.name(), n -> new HashMap<>()).put(i, s);
      }
    }
  }

  private void decode(Section section, HeapState state, int groupIndex) {
    if (section.kind() != state.kind()) {
      throw new IllegalStateException("state '" + section.name() + "' was snapshotted as " + section.kind()
          + " state and cannot be restored as " + state.kind());
    }
    int group = range.start() + groupIndex;
    try {
      HeapSnapshotFormat.decodeInto(section, state, groupIndex, group, maxParallelism);
    } catch (IOException | RuntimeException e) {
      throw new IllegalStateException("cannot restore state '" + section.name() + "' of key group " + group
          + ": " + e.getMessage(), e);
    }
  }

  /** Drops every state and entry; handles must not be used afterwards. */
  @Override
  public void close() {
    states.values().forEach(HeapState::clearAll);
    states.clear();
    undecoded.clear();
    unfetched = null;
    currentKey = null;
    currentGroupIndex = -1;
    closed = true;
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("state backend is closed");
    }
  }
}
