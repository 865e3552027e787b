package io.tributary.state.forst.cache;

import io.tributary.state.forst.store.LocalFiles;
import io.tributary.state.forst.store.ObjectNames;
import io.tributary.state.store.ObjectStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Local copies of object-store files, keyed by object name, under one directory with a size limit
 * (contract C5: the local disk is only a cache).
 *
 * <p>{@link #acquire} pins a file and returns a {@link Handle} with its local path, downloading it
 * through the {@link ObjectStore} on a miss; closing the handle ({@link #release}) unpins it.
 * Unpinned files are evicted least recently used first while the {@link CacheLimitPolicy} says the
 * cache is over its limit; pinned files are never evicted. Files written locally (for example a
 * RocksDB checkpoint about to be uploaded) can be {@link #adopt adopted} so they need not be
 * downloaded again.
 *
 * <p>Wiping the directory at any moment loses nothing: a later {@link #acquire} or
 * {@link Handle#path()} notices the missing file and downloads it again. The directory belongs to
 * the cache: its contents are deleted when the cache is created. Objects are immutable, so a local
 * file, once complete, is always a valid copy; downloads land atomically (temp file and rename).
 * Thread-safe; downloads of different files proceed in parallel.
 */
public final class FileCache implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(FileCache.class);

  private final Path directory;
  private final ObjectStore store;
  private final CacheLimitPolicy policy;
  private final LinkedHashMap<String, Entry> entries = new LinkedHashMap<>(16, 0.75f, true);
  private final Counters counters = new Counters();
  private long usedBytes;

  /** A cache in {@code directory} for files of {@code store}, holding about {@code budgetBytes}. */
  public FileCache(Path directory, ObjectStore store, long budgetBytes) {
    this(directory, store, CacheLimitPolicy.bytes(budgetBytes));
  }

  /** A cache in {@code directory} for files of {@code store}, limited by {@code policy}. */
  public FileCache(Path directory, ObjectStore store, CacheLimitPolicy policy) {
    this.directory = directory.toAbsolutePath().normalize();
    this.store = store;
    this.policy = policy;
    try {
      CacheDirectory.reset(this.directory);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot prepare cache directory " + this.directory, e);
    }
  }

  /** The cache directory. */
  public Path directory() {
    return directory;
  }

  /**
   * Pins {@code name} and returns its local copy, downloading it first if needed.
   *
   * @throws java.nio.file.NoSuchFileException if the object does not exist
   * @throws IOException if the download fails (nothing stays pinned)
   */
  public Handle acquire(String name) throws IOException {
    Entry entry = pin(name);
    try {
      if (!materialize(entry)) {
        counters.hit();
      }
    } catch (IOException | RuntimeException e) {
      unpin(entry);
      throw e;
    }
    return new Handle(entry);
  }

  /**
   * Moves the local file {@code file}, whose content is (or is about to be) object {@code name},
   * into the cache and returns it pinned. The caller guarantees the content is the object's.
   */
  public Handle adopt(String name, Path file) throws IOException {
    Entry entry = pin(name);
    try {
      synchronized (entry) {
        long size = Files.size(file);
        moveInto(file, entry.path);
        account(entry, size);
      }
    } catch (IOException | RuntimeException e) {
      unpin(entry);
      throw e;
    }
    return new Handle(entry);
  }

  /** Unpins the handle's file (same as {@link Handle#close()}). */
  public void release(Handle handle) {
    handle.close();
  }

  /** Whether the cache holds a complete local copy of {@code name} right now. */
  public boolean contains(String name) {
    Entry entry;
    synchronized (this) {
      entry = entries.get(name);
    }
    return entry != null && entry.size >= 0 && Files.isRegularFile(entry.path);
  }

  /** The current counters. */
  public synchronized FileCacheMetrics metrics() {
    return counters.snapshot(usedBytes, entries.size());
  }

  /** Forgets all unpinned files and deletes them. Pinned files stay until released. */
  @Override
  public synchronized void close() {
    evict(true);
  }

  private synchronized Entry pin(String name) {
    Entry entry = entries.computeIfAbsent(ObjectNames.validate(name), n -> new Entry(n, directory.resolve(n)));
    entry.pins++;
    return entry;
  }

  private synchronized void unpin(Entry entry) {
    if (--entry.pins < 0) {
      throw new IllegalStateException("file " + entry.name + " released more often than acquired");
    }
    if (entry.pins == 0 && entry.size < 0) {
      entries.remove(entry.name);
    }
    evict(false);
  }

  /** Makes sure the entry's local file exists; returns whether it had to be downloaded. */
  private boolean materialize(Entry entry) throws IOException {
    synchronized (entry) {
      if (entry.size >= 0 && Files.isRegularFile(entry.path)) {
        return false;
      }
      long size = download(entry);
      counters.miss(size);
      account(entry, size);
      return true;
    }
  }

  /** Downloads the entry and returns its size; retries when the directory was wiped meanwhile (C5). */
  private long download(Entry entry) throws IOException {
    for (int attempt = 1; ; attempt++) {
      try {
        store.getShared(entry.name, entry.path); // cached files are only read, never changed
        return Files.size(entry.path);
      } catch (NoSuchFileException e) {
        boolean wipedLocally = e.getFile() != null && e.getFile().startsWith(directory.toString());
        if (!wipedLocally || attempt >= 3) {
          throw e;
        }
      }
    }
  }

  private synchronized void account(Entry entry, long size) {
    usedBytes += size - Math.max(entry.size, 0);
    entry.size = size;
    evict(false);
  }

  /** Deletes unpinned files, least recently used first, while over the limit (or all if asked). */
  private synchronized void evict(boolean all) {
    Iterator<Entry> it = entries.values().iterator();
    while (it.hasNext() && (all || policy.isOverLimit(usedBytes, entries.size()))) {
      Entry entry = it.next();
      if (entry.pins > 0) {
        continue;
      }
      it.remove();
      usedBytes -= Math.max(entry.size, 0);
      counters.evicted();
      try {
        Files.deleteIfExists(entry.path);
      } catch (IOException e) {
        LOG.warn("Could not delete evicted cache file {}", entry.path, e);
      }
    }
  }

  private static void moveInto(Path file, Path target) throws IOException {
    Path temp = LocalFiles.tempFor(target);
    Files.move(file, temp);
    LocalFiles.moveReplacing(temp, target);
  }

  /** One cached object; {@code size < 0} until a complete local copy exists. Guarded by the cache. */
  private static final class Entry {
    final String name;
    final Path path;
    int pins;
    volatile long size = -1;

    Entry(String name, Path path) {
      this.name = name;
      this.path = path;
    }
  }

  /**
   * A pinned cached file. Close it when the file is no longer read; closing twice is harmless.
   */
  public final class Handle implements AutoCloseable {
    private final Entry entry;
    private final AtomicBoolean closed = new AtomicBoolean();

    private Handle(Entry entry) {
      this.entry = entry;
    }

    /** The object name. */
    public String name() {
      return entry.name;
    }

    /**
     * The local file, downloaded again first if someone deleted it since (C5).
     *
     * @throws IllegalStateException if the handle is closed
     */
    public Path path() throws IOException {
      if (closed.get()) {
        throw new IllegalStateException("handle for " + entry.name + " is closed");
      }
      materialize(entry);
      return entry.path;
    }

    @Override
    public void close() {
      if (closed.compareAndSet(false, true)) {
        unpin(entry);
      }
    }
  }

  /** Monotonic counters; guarded by the cache. */
  private static final class Counters {
    private long hits;
    private long misses;
    private long evictions;
    private long bytesDownloaded;

    synchronized void hit() {
      hits++;
    }

    synchronized void miss(long bytes) {
      misses++;
      bytesDownloaded += bytes;
    }

    synchronized void evicted() {
      evictions++;
    }

    synchronized FileCacheMetrics snapshot(long usedBytes, int files) {
      return new FileCacheMetrics(hits, misses, evictions, usedBytes, files, bytesDownloaded);
    }
  }
}
