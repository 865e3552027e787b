package io.tributary.state.forst.rocks;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.RocksDB;

/**
 * A shard hands its held writes to an {@link Applier} instead of writing them itself: a read of a
 * key whose write is still queued waits for it, and a cut holds exactly the writes handed over
 * before it, whatever the applier has run when the task goes on.
 */
@Timeout(60)
class ShardApplierTest {
  @TempDir
  Path tmp;
  RocksResources rocks;
  Shard shard;
  final ConcurrentLinkedQueue<Runnable> applying = new ConcurrentLinkedQueue<>();
  final ConcurrentLinkedQueue<Runnable> background = new ConcurrentLinkedQueue<>();

  @BeforeEach
  void open() {
    rocks = new RocksResources(8L << 20, 16L << 20);
    shard = Shard.open(rocks, background::add, Runnable::run, new Applier(applying::add, 1 << 20), 0,
        tmp.resolve("kg"), null, null, 0);
  }

  @AfterEach
  void close() {
    runAll(applying);
    runAll(background);
    shard.close();
    rocks.close();
  }

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static void runAll(ConcurrentLinkedQueue<Runnable> q) {
    for (Runnable r = q.poll(); r != null; r = q.poll()) {
      r.run();
    }
  }

  /** A key as the states write them ({@code stateId | key length | key | namespace}): the filter knows it. */
  private static byte[] entry(String key) {
    BytesOut out = new BytesOut(32);
    out.writeInt(11);
    out.writeVarInt(key.length());
    out.write(b(key), 0, key.length());
    out.write(0);
    return out.toByteArray();
  }

  private void put(String key, String value) {
    shard.put(b(key), b(key).length, b(value), b(value).length);
  }

  /** {@code key}'s value read through {@code s}, or null. */
  private static String get(Shard s, String key) {
    byte[] buf = new byte[64];
    int n = s.get(b(key), b(key).length, buf);
    return n == RocksDB.NOT_FOUND ? null : new String(buf, 0, n, StandardCharsets.UTF_8);
  }

  private static String raw(RocksDB db, String key) throws Exception {
    byte[] v = db.get(b(key));
    return v == null ? null : new String(v, StandardCharsets.UTF_8);
  }

  @Test
  void aReadOfAKeyWhoseWriteIsQueuedWaitsForTheApplierAndSeesIt() throws Exception {
    for (int i = 0; i < Shard.HELD_WRITES; i++) { // the last one fills the batch: handed over
      put("k" + i, "v" + i);
    }
    assertThat(applying).hasSize(1);
    assertThat(raw(shard.db(), "k0")).as("not written by the task thread").isNull();

    CompletableFuture<String> read = new CompletableFuture<>();
    Thread reader = new Thread(() -> read.complete(get(shard, "k0")), "reader");
    reader.start();
    ApplierTest.awaitWaiting(reader);
    assertThat(read).as("waits for the queued batch").isNotDone();

    runAll(applying);
    reader.join(30_000);
    assertThat(read.join()).isEqualTo("v0");
    assertThat(raw(shard.db(), "k0")).isEqualTo("v0");
  }

  @Test
  void aReadOfAKeyInNoQueuedBatchDoesNotWait() {
    put("a", "1");
    shard.applyHeld();
    for (int i = 0; i < Shard.HELD_WRITES; i++) {
      put("k" + i, "v");
    }
    assertThat(applying).hasSize(1);
    assertThat(get(shard, "a")).isEqualTo("1"); // the queue is run by this thread: waiting would never end
    assertThat(applying).hasSize(1);
  }

  @Test
  void aCursorMadeBeforeABatchWasAppliedIsNotUsedAfterIt() {
    for (int i = 0; i <= 8; i++) {
      put("a" + i, "x");
    }
    shard.applyHeld();
    for (int i = 0; i <= 8; i++) { // reads in ascending order: through a cursor
      assertThat(get(shard, "a" + i)).isEqualTo("x");
    }
    assertThat(shard.cursorReads()).isPositive();
    put("a9", "new"); // after the cursor's position; handed over with the batch it fills
    for (int i = 0; i < Shard.HELD_WRITES - 1; i++) {
      put("b" + i, "y");
    }
    runAll(applying);
    long before = shard.cursorReads();
    assertThat(get(shard, "a9")).isEqualTo("new");
    assertThat(shard.cursorReads()).as("read in ascending order still").isEqualTo(before + 1);
  }

  @Test
  void aFilterRebuildDoesNotWaitForTheQueuedWritesAndItsListingStartsAfterThem() {
    ConcurrentLinkedQueue<Runnable> listings = new ConcurrentLinkedQueue<>();
    Shard s = Shard.open(rocks, background::add, listings::add, new Applier(applying::add, 64 << 20), 1,
        tmp.resolve("kg-1"), null, null, 0);
    try {
      int keys = KeyFilter.MIN_CAPACITY + 10; // the filter fills on the way: it is rebuilt
      for (int i = 0; i < keys; i++) {
        byte[] k = entry("k" + i);
        s.put(k, k.length, b("v"), 1);
      }
      assertThat(listings).as("the listing waits for the queued writes, the task thread does not").isEmpty();
      runAll(applying);
      assertThat(listings).hasSize(1);
      runAll(listings);
      byte[] buf = new byte[8];
      for (int i = 0; i < keys; i++) {
        byte[] k = entry("k" + i);
        assertThat(s.get(k, k.length, buf)).as("k%d", i).isEqualTo(1);
      }
      assertThat(s.filtered()).isTrue();
    } finally {
      runAll(applying);
      s.close();
    }
  }

  @Test
  void aCutHoldsTheWritesHandedOverBeforeItThoughTheApplierRunsThemAfterLaterWritesWereHandedOver()
      throws Exception {
    for (int i = 0; i < Shard.HELD_WRITES + 10; i++) {
      put("k" + i, "before");
    }
    Path target = tmp.resolve("chk-1");
    CompletableFuture<Void> linked = shard.cut(target);
    for (int i = 0; i < Shard.HELD_WRITES; i++) {
      put("k" + i, "after");
    }
    assertThat(raw(shard.db(), "k0")).as("nothing applied yet").isNull();
    assertThat(linked).isNotDone();

    runAll(applying);
    runAll(background); // takes the cut's files once its flush is done

    linked.join();
    Shard copy = Shard.open(rocks, Runnable::run, 0, target, "m", new ShardManifest(0, 1, List.of()), 0);
    try {
      assertThat(get(copy, "k0")).isEqualTo("before");
      assertThat(get(copy, "k" + (Shard.HELD_WRITES + 9))).isEqualTo("before");
    } finally {
      copy.close();
    }
    assertThat(get(shard, "k0")).isEqualTo("after");
    assertThat(get(shard, "k" + (Shard.HELD_WRITES + 9))).isEqualTo("before");
  }
}
