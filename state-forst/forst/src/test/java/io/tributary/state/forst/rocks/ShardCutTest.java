package io.tributary.state.forst.rocks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.RocksDB;

/**
 * A materialization by cut holds exactly the writes before the cut, although the task goes on
 * writing while its files are taken in the background; when a later write reaches them first, it
 * fails and the shard's next materialization is a checkpoint.
 */
class ShardCutTest {
  @TempDir
  Path tmp;
  RocksResources rocks;
  Shard shard;
  final ArrayDeque<Runnable> background = new ArrayDeque<>();

  @BeforeEach
  void open() {
    rocks = new RocksResources(8L << 20, 16L << 20); // memtables of 2 MiB
    shard = Shard.open(rocks, background::add, 0, tmp.resolve("kg"), null, null, 0);
  }

  @AfterEach
  void close() {
    if (shard != null) {
      shard.close();
    }
    rocks.close();
  }

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private void put(String key, byte[] value) {
    shard.put(b(key), b(key).length, value, value.length);
  }

  /** The value of {@code key} in a shard opened on the files in {@code dir}, or null. */
  private byte[] read(Path dir, String key) {
    Shard copy = Shard.open(rocks, Runnable::run, 0, dir, "m", new ShardManifest(0, 1, List.of()), 0);
    try {
      byte[] buf = new byte[1 << 16];
      int n = copy.get(b(key), b(key).length, buf);
      return n == RocksDB.NOT_FOUND ? null : java.util.Arrays.copyOf(buf, n);
    } finally {
      copy.close();
    }
  }

  @Test
  void theFilesOfACutHoldTheWritesBeforeItAndNoneAfter() {
    put("before", b("1"));
    put("changed", b("old"));
    Path target = tmp.resolve("chk-1");
    CompletableFuture<Void> linked = shard.cut(target);
    put("after", b("2"));
    put("changed", b("new"));
    shard.applyHeld(); // in RocksDB's memtable, not in the one being flushed
    assertThat(linked).as("the files are taken in the background").isNotDone();

    background.poll().run();
    assertThat(linked).isCompleted();
    assertThat(shard.cutFailed()).isFalse();
    assertThat(read(target, "before")).isEqualTo(b("1"));
    assertThat(read(target, "changed")).isEqualTo(b("old"));
    assertThat(read(target, "after")).isNull();
  }

  @Test
  void aCutWhoseFilesALaterFlushReachedFirstFailsAndTheNextMaterializationIsACheckpoint() {
    put("before", b("1"));
    CompletableFuture<Void> linked = shard.cut(tmp.resolve("chk-1"));
    byte[] big = new byte[64 << 10];
    for (int i = 0; i < 64; i++) { // 4 MiB after the cut: the memtable fills and is flushed
      put("after-" + i, big);
    }
    shard.applyHeld();

    background.poll().run();
    assertThatThrownBy(linked::join).hasMessageContaining("was flushed again");
    assertThat(shard.cutFailed()).isTrue();
    Path target = tmp.resolve("chk-2");
    shard.checkpoint(target);
    assertThat(shard.cutFailed()).isFalse();
    assertThat(read(target, "after-63")).hasSize(big.length);
  }

  @Test
  void aCutTakesItsFilesOnceItsOwnFlushIsDoneThoughALaterMemtableWaitsToBeWritten() throws Exception {
    put("before", b("1"));
    Path target = tmp.resolve("chk-1");
    CompletableFuture<Void> linked = shard.cut(target);
    RocksDB db = shard.db();
    long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
    while (db.getLongProperty("rocksdb.num-immutable-mem-table") > 0 && System.nanoTime() < deadline) {
      Thread.onSpinWait(); // the cut's flush runs on RocksDB's threads
    }
    db.pauseBackgroundWork();
    try (org.rocksdb.FlushOptions noWait = new org.rocksdb.FlushOptions().setWaitForFlush(false)) {
      put("after", b("2"));
      shard.applyHeld();
      db.flush(noWait); // under write pressure: the next memtable follows the cut's, its flush not run yet
      assertThat(db.getLongProperty("rocksdb.num-immutable-mem-table")).isEqualTo(1);

      background.poll().run();
      assertThat(linked).as("taken without waiting for the later memtable").isCompleted();
    } finally {
      db.continueBackgroundWork();
    }
    assertThat(shard.cutFailed()).isFalse();
    assertThat(read(target, "before")).isEqualTo(b("1"));
    assertThat(read(target, "after")).isNull();
  }

  @Test
  void aCutWaitsForTheFilesOfThePreviousOneItsFlushWouldReach() throws Exception {
    put("first", b("1"));
    CompletableFuture<Void> first = shard.cut(tmp.resolve("chk-1"));
    put("second", b("2"));
    CompletableFuture<CompletableFuture<Void>> second = new CompletableFuture<>();
    Thread task = new Thread(() -> second.complete(shard.cut(tmp.resolve("chk-2"))), "task");
    task.start();
    awaitWaiting(task); // the second cut, while the first one's files are not taken

    background.poll().run();
    task.join();
    assertThat(first).isCompleted();
    background.poll().run(); // the second cut's files
    assertThat(second.join()).isCompleted();
    assertThat(read(tmp.resolve("chk-1"), "second")).isNull();
    assertThat(read(tmp.resolve("chk-2"), "second")).isEqualTo(b("2"));
  }

  @Test
  void closingAShardWaitsForTheFilesOfItsLastCut() throws Exception {
    put("before", b("1"));
    Path target = tmp.resolve("chk-1");
    CompletableFuture<Void> linked = shard.cut(target);
    Shard closing = shard;
    shard = null;
    Thread closer = new Thread(closing::close, "closer");
    closer.start();
    awaitWaiting(closer);

    background.poll().run();
    closer.join();
    assertThat(linked).as("a snapshot taken before the close, a savepoint before a stop").isCompleted();
    assertThat(read(target, "before")).isEqualTo(b("1"));
  }

  /** Waits until {@code t} waits (for a lock or a future); fails if it ends or keeps running instead. */
  private static void awaitWaiting(Thread t) {
    long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
    while (t.getState() != Thread.State.WAITING && t.getState() != Thread.State.TERMINATED
        && System.nanoTime() < deadline) {
      Thread.onSpinWait();
    }
    assertThat(t.getState()).as(t.getName()).isEqualTo(Thread.State.WAITING);
  }
}
