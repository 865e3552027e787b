package io.tributary.worker.state;

import io.tributary.state.StateBackendFactory;
import io.tributary.state.forst.rocks.ForstConfig;
import io.tributary.state.forst.rocks.ForstStateBackendFactory;
import io.tributary.state.forst.store.ObjectStores;
import io.tributary.state.heap.HeapStateBackendFactory;
import io.tributary.state.store.ObjectStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * The keyed state backends of this process: {@code heap}, and {@code forst} (RocksDB with durable
 * files in an object store), which starts on first use. Configuration, from the environment:
 * <ul>
 *   <li>{@code TRIBUTARY_OBJECT_STORE}: a local directory or {@code s3://bucket/prefix}
 *       (default {@code data/objects});
 *   <li>{@code TRIBUTARY_LOCAL_DIR}: the local working directory and file cache (default
 *       {@code data/local}); a cache: it may be deleted whenever Tributary is not running;
 *   <li>{@code TRIBUTARY_CACHE_BUDGET}: the cache's disk budget, e.g. {@code 8g}, {@code 512m};
 *   <li>{@code TRIBUTARY_FORST_CHANGE_LOG}: {@code false} makes every checkpoint materialize every
 *       changed shard instead of uploading change logs (see {@code ForstConfig#changeLog});
 *   <li>{@code TRIBUTARY_FORST_BLOCK_CACHE}: RocksDB's block cache, shared by every forst
 *       backend of the process, e.g. {@code 256m} (the default, {@code ForstConfig#DEFAULT_BLOCK_CACHE});
 *   <li>{@code TRIBUTARY_FORST_STATE_CACHE}: entries (deserialized state objects, and a slot per
 *       key) that each forst operator subtask keeps on the heap (default
 *       {@code ForstConfig#DEFAULT_STATE_CACHE_ENTRIES}; 0: none);
 *   <li>{@code TRIBUTARY_FORST_TIMERS}: {@code heap} keeps the timers of forst operators on the heap
 *       instead of in the backend (see {@code ForstConfig#timersInState}; for comparison only: a
 *       checkpoint taken with timers in the backend loses them when restored with {@code heap}).
 * </ul>
 */
public final class StateBackends implements AutoCloseable {
  private final HeapStateBackendFactory heap;
  private final LazyForst forst;
  private final StateParking parking = new StateParking();

  /** Configured from the environment. */
  public StateBackends() {
    this(env("TRIBUTARY_OBJECT_STORE", "data/objects"), Path.of(env("TRIBUTARY_LOCAL_DIR", "data/local")));
  }

  /** With an explicit object store URL and local directory (tests, embedded servers). */
  public StateBackends(String objectStoreUrl, Path localDir) {
    this.heap = new HeapStateBackendFactory();
    this.forst = new LazyForst(objectStoreUrl, null, localDir);
  }

  /**
   * For checkpointed runs: heap snapshots go to {@code checkpoints}, forst files to the object store
   * at {@code checkpointsUrl} (the same storage), so a checkpoint directory holds everything a
   * restore needs.
   */
  public StateBackends(ObjectStore checkpoints, String checkpointsUrl) {
    this(checkpoints, Path.of(env("TRIBUTARY_LOCAL_DIR", "data/local")));
  }

  /**
   * Heap snapshots and forst files both in {@code store} (not closed by this), forst's working
   * files and cache under {@code localRoot} (one subdirectory per process).
   */
  public StateBackends(ObjectStore store, Path localRoot) {
    this.heap = new HeapStateBackendFactory(store);
    this.forst = new LazyForst(null, store, localRoot);
  }

  /**
   * The backends by name; a task whose key groups stay on this process across a rescale keeps its
   * backend open ({@link StateParking}).
   */
  public Map<String, StateBackendFactory> factories() {
    return parking.wrap(Map.of(heap.name(), heap, ForstStateBackendFactory.NAME, forst));
  }

  /** The backends kept open between two attempts of a job (for tests and figures). */
  public StateParking parking() {
    return parking;
  }

  /** The forst backend's counters, if a job of this process used it. */
  public java.util.Optional<io.tributary.state.forst.rocks.ForstMetrics> forstMetrics() {
    return forst.metrics();
  }

  @Override
  public void close() {
    parking.close();
    forst.close();
    heap.close();
  }

  public static long parseBytes(String text) {
    return parseBytes("TRIBUTARY_CACHE_BUDGET", text);
  }

  /**
   * A size such as {@code 8g} or {@code 512m} (bytes without a unit) given as {@code variable}.
   *
   * @throws IllegalArgumentException naming {@code variable} and the value when it is not one
   */
  static long parseBytes(String variable, String text) {
    String t = text.trim().toLowerCase(java.util.Locale.ROOT);
    long unit = 1;
    char last = t.charAt(t.length() - 1);
    if (last == 'k' || last == 'm' || last == 'g' || last == 't') {
      unit = switch (last) {
        case 'k' -> 1L << 10;
        case 'm' -> 1L << 20;
        case 'g' -> 1L << 30;
        default -> 1L << 40;
      };
      t = t.substring(0, t.length() - 1);
    }
    try {
      return Long.parseLong(t) * unit;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(variable + ": '" + text + "' is not a size such as 8g or 512m");
    }
  }

  /**
   * A number of state cache entries, {@code TRIBUTARY_FORST_STATE_CACHE}: a whole number, with
   * {@code k} (thousand) or {@code m} (million) after it if wanted.
   *
   * @throws IllegalArgumentException naming the variable and the value when it is not one
   */
  public static long parseEntries(String text) {
    String t = text.trim().toLowerCase(java.util.Locale.ROOT).replace("_", "");
    long unit = 1;
    if (t.endsWith("k") || t.endsWith("m")) {
      unit = t.endsWith("k") ? 1_000 : 1_000_000;
      t = t.substring(0, t.length() - 1);
    }
    try {
      long n = Long.parseLong(t);
      if (n >= 0 && n <= Long.MAX_VALUE / unit) {
        return n * unit;
      }
    } catch (NumberFormatException e) {
      // below
    }
    throw new IllegalArgumentException("TRIBUTARY_FORST_STATE_CACHE: '" + text
        + "' is not a number of entries such as 100000, 500k or 2m");
  }

  /** Opens the object store and RocksDB resources only when a job asks for forst state. */
  private static final class LazyForst extends io.tributary.state.ForwardingStateBackendFactory implements AutoCloseable {
    private final String url;
    private final ObjectStore given;
    private final Path localRoot;
    private ForstStateBackendFactory factory;
    private ObjectStore store;
    private Path local;

    /** Either {@code url} (opened and closed here) or {@code given} (owned by the caller). */
    LazyForst(String url, ObjectStore given, Path localRoot) {
      this.url = url;
      this.given = given;
      this.localRoot = localRoot;
    }

    @Override
    public String name() {
      return ForstStateBackendFactory.NAME;
    }

    @Override
    protected StateBackendFactory delegate() {
      return get();
    }

    private synchronized ForstStateBackendFactory get() {
      if (factory == null) {
        local = localRoot.resolve("p" + ProcessHandle.current().pid() + "-" + System.identityHashCode(this));
        try {
          removeCachesOfDeadProcesses(localRoot);
          Files.createDirectories(local);
          if (given != null) {
            store = given;
          } else {
            if (!url.contains("://")) {
              Files.createDirectories(Path.of(url));
            }
            store = ObjectStores.open(url);
          }
        } catch (IOException e) {
          throw new UncheckedIOException("cannot open the object store " + url + ": " + e.getMessage(), e);
        }
        long budget = parseBytes(env("TRIBUTARY_CACHE_BUDGET", "8g"));
        long blockCache = parseBytes("TRIBUTARY_FORST_BLOCK_CACHE",
            env("TRIBUTARY_FORST_BLOCK_CACHE", String.valueOf(ForstConfig.DEFAULT_BLOCK_CACHE)));
        factory = ForstStateBackendFactory.fromConfig(new ForstConfig(store, local, budget,
            blockCache, ForstConfig.DEFAULT_WRITE_BUFFER).withPrefetchOnRestore(true)
            .withChangeLog(!"false".equalsIgnoreCase(env("TRIBUTARY_FORST_CHANGE_LOG", "true")))
            .withTimersInState(!"heap".equalsIgnoreCase(env("TRIBUTARY_FORST_TIMERS", "state")))
            .withStateCacheEntries(parseEntries(env("TRIBUTARY_FORST_STATE_CACHE",
                String.valueOf(ForstConfig.DEFAULT_STATE_CACHE_ENTRIES)))));
      }
      return factory;
    }

    synchronized java.util.Optional<io.tributary.state.forst.rocks.ForstMetrics> metrics() {
      return factory == null ? java.util.Optional.empty() : java.util.Optional.of(factory.metrics());
    }

    @Override
    public synchronized void close() {
      if (factory != null) {
        factory.close();
        if (given == null) {
          store.close();
        }
        deleteQuietly(local); // a cache of this process only (contract C5)
      }
    }

  }

  /** Local caches left by runs that were killed: nobody uses them any more (contract C5). */
  private static void removeCachesOfDeadProcesses(Path root) throws IOException {
    if (!Files.isDirectory(root)) {
      return;
    }
    try (java.util.stream.Stream<Path> dirs = Files.list(root)) {
      for (Path d : dirs.toList()) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("p(\\d+)-.*").matcher(d.getFileName().toString());
        if (m.matches() && ProcessHandle.of(Long.parseLong(m.group(1))).map(ProcessHandle::isAlive).orElse(false) == false) {
          deleteQuietly(d);
        }
      }
    }
  }

  private static void deleteQuietly(Path dir) {
    if (dir == null || !Files.exists(dir)) {
      return;
    }
    try (java.util.stream.Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // best effort: whatever stays is a cache that the next run ignores
    }
  }

  private static String env(String name, String fallback) {
    String v = System.getenv(name);
    return v == null || v.isBlank() ? fallback : v;
  }
}
