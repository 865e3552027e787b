package io.tributary.state.forst.rocks;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.rocksdb.Checkpoint;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteBatch;

/**
 * One RocksDB instance holding one key group of one operator instance: the unit of state movement
 * (contract C8). Keys are {@code stateId | key length | key | namespace} (see {@link ForstState}),
 * and timers' keys {@code 0xffffffff | queue id | time | key length | key | namespace} (see {@link
 * ForstTimerQueue}), which the key filter leaves out.
 *
 * <p>The shard remembers which of its SST files are already durable in the object store (by local
 * file name, which RocksDB never reuses), so an incremental snapshot uploads only new files, and the
 * last manifest it was snapshotted or restored under, which a snapshot reuses when nothing changed.
 * Data access happens on the task thread; the durable-file map is also updated by upload threads.
 * Writes are held back and handed to an {@link Applier} in batches: RocksDB takes them on its thread,
 * in order, while the task goes on; a read waits only for the batches that may hold its key.
 *
 * <p>Reads of keys the shard never held do not reach RocksDB: a {@link KeyFilter} of the keys
 * written says so on the heap. A shard created here starts with an empty filter; a restored one has
 * none until enough of its reads found nothing to pay for listing its keys once
 * ({@link #startFilterRebuild}); a filter that fills up is rebuilt from the keys the shard still holds,
 * by a listing in the background.
 */
final class Shard implements AutoCloseable {
  /** How many writes a shard holds back at most, and about how many bytes. */
  static final int HELD_WRITES = 256;
  static final int HELD_BYTES = 64 << 10;
  /** Reads in ascending key order in a row after which reads go through a cursor ({@link #readByCursor}). */
  static final int CURSOR_AFTER = 4;
  /** Entries a cursor steps over at most to reach the next key read, before it seeks instead. */
  static final int CURSOR_STEPS = 16;
  private final int keyGroup;
  private final Path dir;
  private final RocksResources resources;
  private final RocksDB db;
  /** Takes the files of cuts ({@link #cut}). */
  private final java.util.concurrent.Executor background;
  /** Runs the listings that rebuild the key filter ({@link #startFilterRebuild}). */
  private final java.util.concurrent.Executor listings;
  private final Map<String, ShardManifest.ShardFile> durableSsts = new ConcurrentHashMap<>();
  private final java.util.concurrent.atomic.AtomicInteger uploadsInFlight =
      new java.util.concurrent.atomic.AtomicInteger();
  private boolean dirty;
  /** Bytes of keys and values written since {@link #takeWrittenBytes()} (figures only). */
  private long writtenBytes;
  /** The keys this shard may hold; null when unknown (restored, not listed yet). */
  private KeyFilter filter;
  /** A listing of the keys for a new filter, running in the background; null when none runs. */
  private CompletableFuture<KeyFilter> rebuilding;
  /** The hashes of the keys written since that listing started, which it may not see. */
  private long[] writtenWhileRebuilding;
  private int writtenWhileRebuildingCount;
  /** Reads that went to RocksDB and found nothing while there was no filter; see {@link #missed}. */
  private long unfilteredMisses;
  private long rebuildAfterMisses;
  private long rocksReads;
  private volatile boolean uploadFailed;
  /** Held by a listing that uses RocksDB off the task thread ({@link #listKeys}), and by {@link #close}. */
  private final Object backgroundLock = new Object();
  private boolean closed;
  private volatile boolean cutFailed;
  /** The largest sequence number any flush of this shard has written so far (set on RocksDB's threads). */
  private final java.util.concurrent.atomic.AtomicLong flushedThrough = new java.util.concurrent.atomic.AtomicLong(-1);
  /** The files of the last {@link #cut} being linked; null before the first. */
  private CompletableFuture<Void> linking;
  private volatile String manifestName;
  private volatile ShardManifest manifest;
  /** Writes since the last snapshot; null when the backend materializes every snapshot. */
  private final ChangeLog changes;
  /** The files of the last materialization, once durable (completes on the upload thread). */
  private CompletableFuture<List<ShardManifest.ShardFile>> base;
  /** The log segments written since that materialization, each with the upload that makes it durable. */
  private final List<Logged> log = new ArrayList<>();

  /**
   * Writes not handed to the {@link #applier} yet: handed over as one batch when enough are held,
   * applied before any read they could change (see {@link HeldWrites}).
   */
  private HeldWrites held = new HeldWrites(HELD_WRITES, HELD_BYTES);
  /** A cleared batch to hold the next writes in, once one handed over was applied; null when none. */
  private HeldWrites spare;
  /** Applies the batches handed over, and starts the flushes of {@link #cut}s, in order. */
  private final Applier applier;
  /** The last step handed to the {@link #applier}; every step before it completed when it did. */
  private CompletableFuture<?> applying = CompletableFuture.completedFuture(null);
  /** Batches handed over, oldest first, until the task thread sees them applied. */
  private final java.util.ArrayDeque<Handed> handed = new java.util.ArrayDeque<>();
  /** Steps the applier completed (set by its threads, one step at a time). */
  private volatile long applied;
  /**
   * An iterator for reads in ascending key order ({@link #readByCursor}); null when there is none.
   * It sees RocksDB as it was when made, so it is dropped once RocksDB took writes since
   * ({@link #cursorMadeAfter}): the keys a read waits for are checked before it is used, as before
   * any read.
   */
  private RocksIterator cursor;
  /** {@link #applied} just before the cursor was made. */
  private long cursorMadeAfter;
  /** The key last read, {@code lastRead[0, lastReadLen)}; no key read yet while negative. */
  private byte[] lastRead = new byte[64];
  private int lastReadLen = -1;
  /** Reads in a row so far, each of a key above the one before. */
  private int ascendingRun;
  private long cursorReads;
  /** A log segment and the upload that makes it durable. */
  record Logged(ShardManifest.LogSegment segment, CompletableFuture<?> durable) {}

  /** A batch handed to the applier, and the step that applies it. */
  private record Handed(HeldWrites writes, CompletableFuture<?> step) {}

  private Shard(int keyGroup, Path dir, RocksResources resources, java.util.concurrent.Executor background,
      java.util.concurrent.Executor listings, Applier applier, RocksDB db, int logLimit) {
    this.keyGroup = keyGroup;
    this.applier = applier;
    this.dir = dir;
    this.resources = resources;
    this.background = background;
    this.listings = listings;
    this.db = db;
    this.changes = logLimit > 0 ? new ChangeLog(logLimit) : null;
  }

  /**
   * Opens (creating if needed) the shard in {@code dir}, which holds the files of {@code restored}
   * when that is not null; it logs up to {@code logLimit} bytes of writes between two snapshots
   * ({@link ChangeLog}), none when 0. Its key filter is rebuilt, and the files of its cuts are
   * taken, on {@code background}.
   */
  static Shard open(RocksResources resources, java.util.concurrent.Executor background, int keyGroup, Path dir,
      String manifestName, ShardManifest restored, int logLimit) {
    return open(resources, background, background, Applier.inline(), keyGroup, dir, manifestName, restored,
        logLimit);
  }

  /**
   * As {@link #open(RocksResources, java.util.concurrent.Executor, int, Path, String, ShardManifest,
   * int)}, the listings that rebuild its key filter running on {@code listings} and its writes
   * applied by {@code applier}.
   */
  static Shard open(RocksResources resources, java.util.concurrent.Executor background,
      java.util.concurrent.Executor listings, Applier applier, int keyGroup, Path dir, String manifestName,
      ShardManifest restored, int logLimit) {
    try {
      java.nio.file.Files.createDirectories(dir);
      Shard s = new Shard(keyGroup, dir, resources, background, listings, applier,
          RocksDB.open(resources.options(), dir.toString()), logLimit);
      if (restored != null) {
        s.markDurable(manifestName, restored);
        s.base = CompletableFuture.completedFuture(restored.files());
        for (ShardManifest.LogSegment seg : restored.log()) {
          s.log.add(new Logged(seg, CompletableFuture.completedFuture(null)));
        }
        s.rebuildAfterMisses = Math.max(KeyFilter.MIN_CAPACITY, s.estimatedKeys() / 8);
      } else {
        s.base = CompletableFuture.completedFuture(List.of());
        s.filter = new KeyFilter(KeyFilter.MIN_CAPACITY);
      }
      resources.watchFlushes(dir.toString(), seq -> s.flushedThrough.accumulateAndGet(seq, Math::max));
      return s;
    } catch (RocksDBException | java.io.IOException e) {
      throw new ForstStateException("cannot open RocksDB shard of key group " + keyGroup + " in " + dir, e);
    }
  }

  int keyGroup() {
    return keyGroup;
  }

  /** The shard's database; for tests that hold its background work. */
  RocksDB db() {
    return db;
  }

  Path dir() {
    return dir;
  }

  /**
   * Reads the value of {@code key[0, keyLen)} into {@code buf}.
   *
   * @return {@link RocksDB#NOT_FOUND}, or the value's full length (larger than {@code buf} when it
   *     did not fit: call again with a larger buffer)
   */
  int get(byte[] key, int keyLen, byte[] buf) {
    if (rebuilding != null) {
      takeRebuiltFilter();
    }
    if (filter != null && !filter.mayHold(key, KeyFilter.prefixLength(key, keyLen))) {
      return RocksDB.NOT_FOUND;
    }
    if (held.mayHold(key, keyLen)) {
      applyHeld();
    } else if (handedMayHold(key, keyLen)) {
      awaitApplied();
    }
    rocksReads++;
    int n;
    try {
      if (ascending(key, keyLen)) {
        n = readByCursor(key, keyLen, buf);
      } else {
        dropCursor(); // a cursor must only move forward from the key read last
        n = db.get(resources.readOptions(), key, 0, keyLen, buf, 0, buf.length);
      }
    } catch (RocksDBException e) {
      throw failure("read", e);
    }
    if (n == RocksDB.NOT_FOUND && filter == null) {
      missed();
    }
    return n;
  }

  /**
   * Whether {@code key} continues a run of {@link #CURSOR_AFTER} or more reads in ascending key
   * order (timers firing key after key read their windows so); remembers it as the last read.
   */
  private boolean ascending(byte[] key, int keyLen) {
    boolean up = lastReadLen >= 0 && java.util.Arrays.compareUnsigned(key, 0, keyLen, lastRead, 0, lastReadLen) > 0;
    ascendingRun = up ? ascendingRun + 1 : 0;
    if (lastRead.length < keyLen) {
      lastRead = new byte[Math.max(keyLen, 2 * lastRead.length)];
    }
    System.arraycopy(key, 0, lastRead, 0, keyLen);
    lastReadLen = keyLen;
    return ascendingRun >= CURSOR_AFTER;
  }

  /**
   * Reads {@code key} with the shard's {@link #cursor}, made (and positioned by a seek) when there
   * is none, else moved forward: by at most {@link #CURSOR_STEPS} entries, by a seek beyond that.
   * Reads in key order so cost a step through a data block already decoded instead of a lookup
   * from the top of every level; RocksDB merges a key's operands for the iterator as for a get.
   */
  private int readByCursor(byte[] key, int keyLen, byte[] buf) throws RocksDBException {
    cursorReads++;
    if (cursor != null && applied != cursorMadeAfter) {
      dropCursor(); // RocksDB took writes since it was made
    }
    if (cursor == null) {
      cursorMadeAfter = applied;
      cursor = db.newIterator(resources.readOptions());
      cursor.seek(java.util.Arrays.copyOf(key, keyLen));
    } else {
      int steps = 0;
      while (cursor.isValid() && compareToCursor(key, keyLen) > 0) {
        if (++steps > CURSOR_STEPS) {
          cursor.seek(java.util.Arrays.copyOf(key, keyLen));
          break;
        }
        cursor.next();
      }
    }
    if (!cursor.isValid()) {
      cursor.status();
      return RocksDB.NOT_FOUND;
    }
    if (compareToCursor(key, keyLen) != 0) {
      return RocksDB.NOT_FOUND; // the cursor is past it: no such key
    }
    byte[] v = cursor.value();
    System.arraycopy(v, 0, buf, 0, Math.min(v.length, buf.length));
    return v.length;
  }

  private int compareToCursor(byte[] key, int keyLen) {
    byte[] at = cursor.key();
    return java.util.Arrays.compareUnsigned(key, 0, keyLen, at, 0, at.length);
  }

  /**
   * Closes the {@link #cursor}: RocksDB is about to change (an iterator reads what it held when it
   * was made), or the shard closes or checkpoints (an iterator keeps files alive).
   */
  private void dropCursor() {
    if (cursor != null) {
      cursor.close();
      cursor = null;
    }
  }

  /**
   * Whether some entry of the key prefix {@code key[0, prefixLen)} may be in this shard; false only
   * when it certainly is not.
   */
  boolean mayHold(byte[] key, int prefixLen) {
    return filter == null || filter.mayHold(key, prefixLen);
  }

  /** Like {@link #mayHold(byte[], int)} for a prefix of {@link KeyFilter#hash(byte[], int) hash} {@code prefixHash}. */
  boolean mayHold(long prefixHash) {
    return filter == null || filter.mayHold(prefixHash);
  }

  void put(byte[] key, int keyLen, byte[] value, int valueLen) {
    dirty = true;
    writtenBytes += keyLen + valueLen;
    written(key, keyLen);
    if (changes != null) {
      changes.put(key, keyLen, value, valueLen);
    }
    held.put(key, keyLen, value, valueLen);
    applyHeldIfFull();
  }

  /** Appends {@code value} to the value of {@code key} (the merge operator concatenates). */
  void merge(byte[] key, int keyLen, byte[] value, int valueLen) {
    dirty = true;
    writtenBytes += keyLen + valueLen;
    written(key, keyLen);
    if (changes != null) {
      changes.merge(key, keyLen, value, valueLen);
    }
    held.merge(key, keyLen, value, valueLen);
    applyHeldIfFull();
  }

  void delete(byte[] key, int keyLen) {
    dirty = true;
    writtenBytes += keyLen;
    if (changes != null) {
      changes.delete(key, keyLen);
    }
    held.delete(key, keyLen);
    applyHeldIfFull();
  }

  private void applyHeldIfFull() {
    if (held.full()) {
      handOver();
    }
  }

  /** Hands the held writes to the {@link #applier} as one batch; new writes are held anew. */
  private void handOver() {
    if (held.isEmpty()) {
      return;
    }
    HeldWrites batch = held;
    held = takeSpare();
    CompletableFuture<?> step = applier.after(applying, batch.bytes(), () -> {
      try (WriteBatch b = new WriteBatch(batch.serialized())) {
        db.write(resources.writeOptions(), b);
      } catch (RocksDBException e) {
        throw failure("write", e);
      }
      applied++; // one step of this shard at a time
      return null;
    });
    applying = step;
    handed.add(new Handed(batch, step));
  }

  /** A cleared batch for new writes: one handed over and applied, or a new one. */
  private HeldWrites takeSpare() {
    forgetApplied();
    HeldWrites h = spare;
    spare = null;
    return h != null ? h : new HeldWrites(HELD_WRITES, HELD_BYTES);
  }

  /**
   * Drops the batches handed over that are applied (keeping one, cleared, as the {@link #spare});
   * throws when one could not be: RocksDB lacks its writes, so no read may go on.
   */
  private void forgetApplied() {
    while (!handed.isEmpty() && handed.peekFirst().step().isDone()) {
      if (handed.peekFirst().step().isCompletedExceptionally()) {
        awaitApplied(); // throws: every step after a failed one fails
      }
      Handed h = handed.pollFirst();
      if (spare == null) {
        h.writes().clear();
        spare = h.writes();
      }
    }
  }

  /** Whether a batch handed over and not applied yet may hold a write of {@code key[0, keyLen)}. */
  private boolean handedMayHold(byte[] key, int keyLen) {
    forgetApplied();
    for (Handed h : handed) {
      if (h.writes().mayHold(key, keyLen)) {
        return true;
      }
    }
    return false;
  }

  /** Waits until every step handed to the applier completed; throws when one failed. */
  private void awaitApplied() {
    try {
      applying.join();
    } catch (java.util.concurrent.CompletionException e) {
      throw e.getCause() instanceof ForstStateException f ? f
          : new ForstStateException("RocksDB write failed in shard of key group " + keyGroup, e.getCause());
    }
    forgetApplied();
  }

  /**
   * Writes every write so far to RocksDB: waits for the batches handed over, then writes the held
   * ones on the calling thread, as one batch.
   */
  void applyHeld() {
    awaitApplied();
    if (held.isEmpty()) {
      return;
    }
    dropCursor();
    try (WriteBatch batch = new WriteBatch(held.take())) {
      db.write(resources.writeOptions(), batch);
    } catch (RocksDBException e) {
      throw failure("write", e);
    }
  }

  /** Called before {@code key} is written to RocksDB. */
  private void written(byte[] key, int keyLen) {
    if ((filter == null && rebuilding == null) || ForstTimerQueue.isTimerKey(key, keyLen)) {
      return;
    }
    long hash = KeyFilter.hash(key, KeyFilter.prefixLength(key, keyLen));
    if (filter != null) {
      filter.add(hash);
      if (filter.full() && rebuilding == null) {
        startFilterRebuild(); // it may not see this write, which RocksDB has not reached yet: noted below
      }
    }
    if (rebuilding != null) {
      noteWrittenWhileRebuilding(hash);
      takeRebuiltFilter();
    }
  }

  /** A read without a filter found nothing: once that happened often enough, list the keys. */
  private void missed() {
    if (rebuilding == null && ++unfilteredMisses >= rebuildAfterMisses) {
      startFilterRebuild();
      takeRebuiltFilter();
    }
  }

  /**
   * Starts building a filter from the keys the shard holds, with room for as many again, in the
   * background: one pass over the shard, paid for by the RocksDB reads the filter then saves (at
   * least as many as the keys listed, counting the misses or additions that triggered it). The task
   * thread goes on meanwhile with the filter it has (a full one answers as before, with more false
   * positives), noting the keys it writes, which the listing may miss; it takes the new filter at
   * the next access after the listing ends. A listing of a shard with state beyond memory reads
   * its files, so every shard of a backend filling its filter in the same snapshot's cache flush
   * held the task thread for seconds when the listings ran on it. The listing starts once the
   * applier wrote the writes so far: the task thread does not wait for that either.
   */
  private void startFilterRebuild() {
    handOver(); // the listing starts once RocksDB has every write so far; the later ones are noted
    writtenWhileRebuilding = new long[64];
    writtenWhileRebuildingCount = 0;
    rebuilding = applying.thenApplyAsync(applied -> listKeys(), listings);
  }

  private void noteWrittenWhileRebuilding(long hash) {
    if (writtenWhileRebuildingCount == writtenWhileRebuilding.length) {
      writtenWhileRebuilding = java.util.Arrays.copyOf(writtenWhileRebuilding, 2 * writtenWhileRebuildingCount);
    }
    writtenWhileRebuilding[writtenWhileRebuildingCount++] = hash;
  }

  /** Task thread: installs the filter of a finished listing, with the keys written since it started. */
  private void takeRebuiltFilter() {
    if (!rebuilding.isDone()) {
      return;
    }
    CompletableFuture<KeyFilter> done = rebuilding;
    rebuilding = null;
    long[] noted = writtenWhileRebuilding;
    int n = writtenWhileRebuildingCount;
    writtenWhileRebuilding = null;
    KeyFilter f;
    try {
      f = done.join();
    } catch (java.util.concurrent.CompletionException | java.util.concurrent.CancellationException e) {
      // only an optimisation: read through RocksDB, and try again after twice as many misses
      filter = null;
      unfilteredMisses = 0;
      rebuildAfterMisses = Math.max(KeyFilter.MIN_CAPACITY, 2 * rebuildAfterMisses);
      return;
    }
    for (int i = 0; i < n; i++) {
      f.add(noted[i]);
    }
    filter = f;
  }

  /** Background: a filter of the keys RocksDB holds now (not the timers), with room for as many again. */
  private KeyFilter listKeys() {
    synchronized (backgroundLock) {
      if (closed) {
        throw new ForstStateException("shard of key group " + keyGroup + " closed before its keys were listed");
      }
      long[] hashes = new long[64];
      int n = 0;
      byte[] last = null;
      int lastLen = 0;
      try (RocksIterator it = db.newIterator(resources.readOptions())) {
        for (it.seekToFirst(); it.isValid(); it.next()) {
          byte[] k = it.key();
          if (ForstTimerQueue.isTimerKey(k, k.length)) {
            continue; // timers are never read by key: the filter need not know them
          }
          int len = KeyFilter.prefixLength(k, k.length);
          if (last != null && len == lastLen && java.util.Arrays.equals(k, 0, len, last, 0, len)) {
            continue; // another entry of the same key
          }
          if (n == hashes.length) {
            hashes = java.util.Arrays.copyOf(hashes, n * 2);
          }
          hashes[n++] = KeyFilter.hash(k, len);
          last = k;
          lastLen = len;
        }
        it.status();
      } catch (RocksDBException e) {
        throw failure("list keys", e);
      }
      KeyFilter f = new KeyFilter((int) Math.min(Integer.MAX_VALUE / 16, 2L * n));
      for (int i = 0; i < n; i++) {
        f.add(hashes[i]);
      }
      return f;
    }
  }

  /** Reads that went to RocksDB (the filter did not rule them out); for tests. */
  long rocksReads() {
    return rocksReads;
  }

  /** Reads that went through a cursor ({@link #readByCursor}); for tests. */
  long cursorReads() {
    return cursorReads;
  }

  /** Whether this shard currently has a filter; for tests. */
  boolean filtered() {
    return filter != null;
  }

  /** A new iterator; the caller closes it. */
  RocksIterator iterator() {
    applyHeld();
    return db.newIterator(resources.readOptions());
  }

  /**
   * Whether a snapshot may reference the last manifest again: nothing changed since it was written
   * or restored, and no upload of this shard is pending or failed.
   */
  boolean reusable() {
    return !dirty && manifestName != null && uploadsInFlight.get() == 0 && !uploadFailed;
  }

  /** Called when an upload of a checkpoint of this shard starts. */
  void uploadStarted() {
    uploadsInFlight.incrementAndGet();
  }

  /** Called when that upload ends; {@code m} is null when it failed. */
  void uploadEnded(String name, ShardManifest m) {
    if (m == null) {
      uploadFailed = true;
    } else {
      markDurable(name, m);
      uploadFailed = false;
    }
    uploadsInFlight.decrementAndGet();
  }

  /**
   * Flushes the memtable and writes a RocksDB checkpoint (hard links) into {@code target}, which
   * must not exist: a materialization, which empties the change log. Runs while the task thread
   * waits (no write meanwhile); clears the dirty flag.
   */
  void checkpoint(Path target) {
    awaitLinking(); // this flush would reach the files of the last cut
    applyHeld();
    dropCursor();
    try (Checkpoint cp = Checkpoint.create(db)) {
      // with the WAL off, createCheckpoint flushes the memtable itself (log_size_for_flush 0)
      cp.createCheckpoint(target.toString());
      dirty = false;
      cutFailed = false;
      if (changes != null) {
        changes.clear();
      }
      log.clear();
    } catch (RocksDBException e) {
      throw failure("checkpoint into " + target, e);
    }
  }

  /** How long {@link #linkCut} waits for the flush {@link #cut} started before it gives up. */
  static final long CUT_FLUSH_TIMEOUT_NANOS = java.util.concurrent.TimeUnit.MINUTES.toNanos(2);

  /**
   * Task thread: a materialization into {@code target} (which must not exist) as of now that waits
   * neither for RocksDB to take the writes so far nor for the memtable to be written. Hands the
   * held writes over, then the {@link #applier}, after them, notes RocksDB's last sequence number
   * and starts flushing the memtable without waiting (later writes, handed over after, go into a
   * new one); the log starts anew, as after {@link #checkpoint}. The files are linked in the
   * background ({@link #linkCut}); the result completes then. Waits for the previous cut's files
   * first: this cut's flush would reach them.
   */
  CompletableFuture<Void> cut(Path target) {
    awaitLinking();
    handOver();
    dropCursor();
    CompletableFuture<Long> flushing = applier.after(applying, 0, () -> {
      long sequence = db.getLatestSequenceNumber();
      try {
        db.flush(resources.flushOptions());
      } catch (RocksDBException e) {
        throw failure("flush", e);
      }
      return sequence;
    });
    applying = flushing;
    dirty = false;
    if (changes != null) {
      changes.clear();
    }
    log.clear();
    linking = flushing.handleAsync((sequence, failed) -> {
      if (failed != null) {
        cutFailed = true;
        throw failed instanceof java.util.concurrent.CompletionException c ? c
            : new java.util.concurrent.CompletionException(failed);
      }
      linkCut(sequence, target);
      return null;
    }, background);
    return linking;
  }

  /** Waits until the files of the last {@link #cut} are taken (or could not be). */
  private void awaitLinking() {
    if (linking != null && !linking.isDone()) {
      linking.handle((ok, failed) -> null).join();
    }
  }

  /**
   * Background, after a {@link #cut}: waits for the flush it started, then links the files holding
   * exactly the writes up to {@code sequence} into {@code target} (which must not exist), as a
   * RocksDB checkpoint would: the SSTs as hard links, the MANIFEST as far as it describes them and
   * a CURRENT naming it (not the OPTIONS: a shard is opened with the process's options). Fails
   * when a later write reached those files first (a later flush, or a compaction of one): then
   * {@link #cutFailed} says the next materialization must be a {@link #checkpoint} instead.
   */
  private void linkCut(long sequence, Path target) {
    // no lock: closing waits for this (awaitLinking), so RocksDB stays open meanwhile
    boolean taken = false;
    try {
      awaitFlush(sequence);
      db.disableFileDeletions();
      try {
        linkFiles(sequence, target);
      } finally {
        db.enableFileDeletions();
      }
      taken = true;
    } catch (RocksDBException e) {
      throw failure("take the files of a materialization into " + target, e);
    } catch (java.io.IOException e) {
      throw new ForstStateException("cannot link the files of key group " + keyGroup + " into " + target, e);
    } finally {
      if (!taken) {
        cutFailed = true;
      }
    }
  }

  /** Whether the files of the last {@link #cut} could not be taken: the next materialization is a {@link #checkpoint}. */
  boolean cutFailed() {
    return cutFailed;
  }

  /**
   * Waits until every write up to {@code sequence} is in files: a flush wrote that sequence number
   * (the last write before the cut is in the memtable the cut's flush takes, when it holds any), or
   * no memtable is left to write. Not for every immutable memtable, as RocksDB's own wait does: under
   * write pressure a later memtable may follow right behind the cut's, and its flush would make the
   * cut's files unusable (a later write in them) if the files were taken only after it.
   */
  private void awaitFlush(long sequence) throws RocksDBException {
    long deadline = System.nanoTime() + CUT_FLUSH_TIMEOUT_NANOS;
    while (flushedThrough.get() < sequence && db.getLongProperty("rocksdb.num-immutable-mem-table") > 0) {
      if (System.nanoTime() - deadline > 0) {
        throw new ForstStateException("key group " + keyGroup + ": the memtable flush did not end within "
            + java.util.concurrent.TimeUnit.NANOSECONDS.toSeconds(CUT_FLUSH_TIMEOUT_NANOS) + " s");
      }
      java.util.concurrent.locks.LockSupport.parkNanos(CUT_POLL_NANOS);
    }
  }

  private static final long CUT_POLL_NANOS = 200_000;
  /** Listings of the live files {@link #linkFiles} tries when compactions change them in between. */
  private static final int CUT_LISTINGS = 5;

  private void linkFiles(long sequence, Path target) throws RocksDBException, java.io.IOException {
    for (int attempt = 0; attempt < CUT_LISTINGS; attempt++) {
      RocksDB.LiveFiles live = db.getLiveFiles(false);
      Map<String, Long> largest = new java.util.HashMap<>();
      for (org.rocksdb.LiveFileMetaData f : db.getLiveFilesMetaData()) {
        largest.put(bareName(f.fileName()), f.largestSeqno());
      }
      boolean listed = true;
      for (String f : live.files) {
        String name = bareName(f);
        if (!name.endsWith(".sst")) {
          continue;
        }
        Long seq = largest.get(name);
        if (seq == null) {
          listed = false; // compacted away between the two listings
          break;
        }
        if (seq > sequence) {
          throw new ForstStateException("key group " + keyGroup + " was flushed again (file " + name
              + ") before the files of its materialization were taken; its next materialization waits for"
              + " its flush");
        }
      }
      if (!listed) {
        continue;
      }
      java.nio.file.Files.createDirectories(target);
      for (String f : live.files) {
        String name = bareName(f);
        if (name.endsWith(".sst")) {
          java.nio.file.Files.createLink(target.resolve(name), dir.resolve(name));
        } else if (name.startsWith("MANIFEST-")) {
          copyPrefix(dir.resolve(name), target.resolve(name), live.manifestFileSize);
          java.nio.file.Files.writeString(target.resolve("CURRENT"), name + "\n");
        }
      }
      return;
    }
    throw new ForstStateException("key group " + keyGroup + ": its files kept changing while they were listed");
  }

  private static String bareName(String f) {
    return f.startsWith("/") ? f.substring(1) : f;
  }

  private static void copyPrefix(Path from, Path to, long bytes) throws java.io.IOException {
    try (java.nio.channels.FileChannel in = java.nio.channels.FileChannel.open(from);
        java.nio.channels.FileChannel out = java.nio.channels.FileChannel.open(to,
            java.nio.file.StandardOpenOption.CREATE_NEW, java.nio.file.StandardOpenOption.WRITE)) {
      long done = 0;
      while (done < bytes) {
        long n = in.transferTo(done, bytes - done, out);
        if (n <= 0) {
          throw new java.io.EOFException(from + " is shorter than " + bytes + " bytes");
        }
        done += n;
      }
    }
  }

  /**
   * Whether the next snapshot cannot log this shard and must materialize it: it does not log, its
   * log overflowed, or an upload its manifest would build on failed.
   */
  boolean mustMaterialize() {
    if (changes == null || changes.overflowed() || base.isCompletedExceptionally()) {
      return true;
    }
    for (Logged l : log) {
      if (l.durable().isCompletedExceptionally()) {
        return true;
      }
    }
    return false;
  }

  /** Whether the log since the last materialization reached {@code maxLogBytes} or {@code maxSegments}. */
  boolean logReached(long maxLogBytes, int maxSegments) {
    return logBytesSinceMaterialization() > maxLogBytes || log.size() >= maxSegments;
  }

  /** What a restore would replay after the next logged snapshot; ranks shards for materialization. */
  long logBytesSinceMaterialization() {
    if (changes == null) {
      return 0;
    }
    long n = changes.size();
    for (Logged l : log) {
      n += l.segment().length();
    }
    return n;
  }

  /**
   * Bytes of the durable files of the last materialization, when known; 0 otherwise (still
   * uploading, or its upload failed).
   */
  long baseBytes() {
    List<ShardManifest.ShardFile> files = base.isCompletedExceptionally() ? null : base.getNow(null);
    long n = 0;
    if (files != null) {
      for (ShardManifest.ShardFile f : files) {
        n += f.size();
      }
    }
    return n;
  }

  /**
   * Takes the writes logged since the last snapshot (on the task thread, instead of a checkpoint).
   * The caller adds the returned bytes as a new segment with {@link #logged}.
   */
  /** Bytes of keys and values written since the last call. */
  long takeWrittenBytes() {
    long n = writtenBytes;
    writtenBytes = 0;
    return n;
  }

  byte[] takeChanges() {
    dirty = false;
    return changes.take();
  }

  /** Records a segment of this shard's log and the upload that makes it durable. */
  void logged(ShardManifest.LogSegment segment, CompletableFuture<?> durable) {
    log.add(new Logged(segment, durable));
  }

  /** The log since the last materialization, oldest first (task thread; read only). */
  List<Logged> log() {
    return log;
  }

  /** The files of the last materialization; completes when they are durable. */
  CompletableFuture<List<ShardManifest.ShardFile>> base() {
    return base;
  }

  /** Sets the files of a materialization taken on the task thread, durable once {@code files} completes. */
  void materialized(CompletableFuture<List<ShardManifest.ShardFile>> files) {
    base = files;
  }

  /**
   * Applies the writes of a log segment on restore, without logging them again (they are durable
   * already).
   */
  void replay(byte[] data, int offset, int length) throws java.io.IOException {
    applyHeld(); // in order: held writes are older
    dropCursor();
    ChangeLog.replay(data, offset, length, new ChangeLog.Target() {
      @Override
      public void put(byte[] key, byte[] value) {
        rocks(() -> db.put(resources.writeOptions(), key, value));
      }

      @Override
      public void merge(byte[] key, byte[] value) {
        rocks(() -> db.merge(resources.writeOptions(), key, value));
      }

      @Override
      public void delete(byte[] key) {
        rocks(() -> db.delete(resources.writeOptions(), key));
      }
    });
  }

  private interface RocksWrite {
    void run() throws RocksDBException;
  }

  private void rocks(RocksWrite w) {
    try {
      w.run();
    } catch (RocksDBException e) {
      throw failure("replay", e);
    }
  }

  /** The durable entry of a local SST file, or null if it was never uploaded. */
  ShardManifest.ShardFile durableSst(String localName) {
    return durableSsts.get(localName);
  }

  /**
   * Records that the shard's state is durable as {@code m} under {@code name}; an older manifest
   * than the one recorded (uploads finishing out of order) only adds its durable files.
   */
  synchronized void markDurable(String name, ShardManifest m) {
    for (ShardManifest.ShardFile f : m.files()) {
      if (f.shared()) {
        durableSsts.put(f.local(), f);
      }
    }
    if (manifest == null || m.checkpointId() >= manifest.checkpointId()) {
      manifest = m;
      manifestName = name;
    }
  }

  /** The last manifest this shard was snapshotted or restored under, or null. */
  String manifestName() {
    return manifestName;
  }

  ShardManifest manifest() {
    return manifest;
  }

  long estimatedKeys() {
    try {
      return db.getLongProperty("rocksdb.estimate-num-keys");
    } catch (RocksDBException e) {
      throw failure("read property", e);
    }
  }

  private ForstStateException failure(String what, RocksDBException e) {
    return new ForstStateException("RocksDB " + what + " failed in shard of key group " + keyGroup, e);
  }

  @Override
  public void close() {
    applying.handle((ok, failed) -> null).join(); // RocksDB stays open while the applier writes into it
    awaitLinking(); // a snapshot taken before closing gets its files (a savepoint before a stop)
    synchronized (backgroundLock) {
      closed = true; // a running listing ends first; a queued one finds the shard closed
    }
    dropCursor();
    // compactions of a closing shard are wasted work: its directory is only a cache (C5)
    db.cancelAllBackgroundWork(false);
    resources.unwatchFlushes(dir.toString());
    db.close();
    held.clear(); // like the memtable, lost with the directory
  }
}
