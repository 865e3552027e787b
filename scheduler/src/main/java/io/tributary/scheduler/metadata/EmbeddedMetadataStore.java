package io.tributary.scheduler.metadata;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A {@link MetadataStore} for one process, durable in a local directory (the embedded default,
 * {@code ./data/metadata}).
 *
 * <p><b>Why a log.</b> Every write appends one checksummed record to {@code metadata.log} and
 * forces it to disk before returning, so a write costs one sequential append and one {@code
 * fdatasync} — not the file create, rename and directory sync per item that a file-per-item layout
 * needs — and a key may hold any characters {@link Keys} allows, file-name rules aside. A crash
 * can tear only the last record, which reopening detects by its checksum and drops: it was never
 * acknowledged. When the log has grown to more than twice the live data (and past {@code
 * compactAboveBytes}), it is rewritten with only the live items to a temporary file that is
 * forced and renamed over the log atomically. See {@link MetadataLog} and {@link LogReplay}.
 *
 * <p><b>Memory and speed.</b> All items are held in a sorted map, replayed from the log on open:
 * reads never touch the disk and never block. Writes are serialised by one lock; a thousand jobs
 * and a few hundred writes a second are well within reach on an SSD.
 *
 * <p><b>One process.</b> A {@code LOCK} file is held while open; a second store on the same
 * directory, in this process or another, fails with a non-retryable {@link
 * MetadataStoreException}.
 */
public final class EmbeddedMetadataStore implements MetadataStore {
  /** Environment variable naming the store's directory (the embedded default is {@link #DEFAULT_DIR}). */
  public static final String DIR_ENV = "TRIBUTARY_METADATA_DIR";
  /** The directory of the embedded default, relative to the working directory. */
  public static final Path DEFAULT_DIR = Path.of("data", "metadata");
  /** Default log size below which the store never compacts. */
  public static final long DEFAULT_COMPACT_ABOVE_BYTES = 8L * 1024 * 1024;

  private final ConcurrentSkipListMap<String, Item> items = new ConcurrentSkipListMap<>();
  private final ReentrantLock writeLock = new ReentrantLock();
  private final long compactAboveBytes;
  private final MetadataLog log;
  private long liveBytes;
  private volatile boolean closed;

  /** Opens the store in {@code dir}, creating the directory if needed. */
  public EmbeddedMetadataStore(Path dir) {
    this(dir, DEFAULT_COMPACT_ABOVE_BYTES);
  }

  /**
   * Opens the store in {@code dir}, compacting only once the log exceeds {@code compactAboveBytes}
   * (and twice the live data).
   */
  public EmbeddedMetadataStore(Path dir, long compactAboveBytes) {
    this.compactAboveBytes = compactAboveBytes;
    this.log = MetadataLog.open(dir, this::apply);
  }

  private void apply(LogRecord record) {
    Item item = record.item();
    Item old = record.delete() ? items.remove(item.key()) : items.put(item.key(), item);
    liveBytes += (record.delete() ? 0 : LogRecord.put(item).encodedSize())
        - (old == null ? 0 : LogRecord.put(old).encodedSize());
  }

  @Override
  public Optional<Item> get(String key) {
    checkOpen();
    return Optional.ofNullable(items.get(Keys.check(key)));
  }

  @Override
  public long put(String key, byte[] value, long expectedVersion) {
    Item item = new Item(key, MetadataStore.checkExpected(expectedVersion) + 1, value);
    write(key, expectedVersion, LogRecord.put(item));
    return item.version();
  }

  @Override
  public void delete(String key, long expectedVersion) {
    if (expectedVersion < 1) {
      throw new IllegalArgumentException("delete needs the item's version, at least 1: " + expectedVersion);
    }
    write(key, expectedVersion, LogRecord.delete(key, expectedVersion));
  }

  private void write(String key, long expectedVersion, LogRecord record) {
    writeLock.lock();
    try {
      checkOpen();
      Item current = items.get(key);
      long actual = current == null ? 0 : current.version();
      if (actual != expectedVersion) {
        throw new ConflictException(key, expectedVersion, actual);
      }
      log.append(record);
      apply(record);
      compactIfLarge();
    } catch (IOException e) {
      throw new MetadataStoreException("cannot write metadata " + key + ": " + e, true, e);
    } finally {
      writeLock.unlock();
    }
  }

  private void compactIfLarge() throws IOException {
    if (log.size() > compactAboveBytes && log.size() > 2 * liveBytes) {
      log.rewrite(items.values());
    }
  }

  @Override
  public Page query(String prefix, Optional<String> continuation, int limit) {
    checkOpen();
    Keys.checkPrefix(prefix);
    MetadataStore.checkLimit(limit);
    NavigableMap<String, Item> tail = continuation
        .map(after -> items.tailMap(checkContinuation(prefix, after), false))
        .orElseGet(() -> items.tailMap(prefix, true));
    List<Item> page = new ArrayList<>();
    for (Map.Entry<String, Item> entry : tail.entrySet()) {
      if (!entry.getKey().startsWith(prefix)) {
        break;
      }
      if (page.size() == limit) {
        return new Page(page, Optional.of(page.get(limit - 1).key()));
      }
      page.add(entry.getValue());
    }
    return new Page(page, Optional.empty());
  }

  private static String checkContinuation(String prefix, String after) {
    if (!after.startsWith(prefix)) {
      throw new IllegalArgumentException("continuation " + after + " is not from a query of " + prefix);
    }
    return after;
  }

  private void checkOpen() {
    if (closed) {
      throw new MetadataStoreException("metadata store is closed", false);
    }
  }

  /** Number of items held; for tests and metrics. */
  public int size() {
    return items.size();
  }

  @Override
  public void close() {
    writeLock.lock();
    try {
      if (!closed) {
        closed = true;
        log.close();
      }
    } finally {
      writeLock.unlock();
    }
  }
}
