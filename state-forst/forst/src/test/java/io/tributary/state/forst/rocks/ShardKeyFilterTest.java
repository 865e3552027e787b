package io.tributary.state.forst.rocks;

import static io.tributary.state.forst.rocks.KeyFilterTest.key;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.RocksDB;

/** Reads of keys a shard never held stay on the heap, without changing what any read returns. */
class ShardKeyFilterTest {
  @TempDir
  Path tmp;
  RocksResources rocks;
  Shard shard;
  final byte[] buf = new byte[64];

  @BeforeEach
  void open() {
    rocks = new RocksResources(8L << 20, 16L << 20);
  }

  @AfterEach
  void close() {
    if (shard != null) {
      shard.close();
    }
    rocks.close();
  }

  private static byte[] entry(String key, int namespace) {
    return key(11, key.getBytes(), new byte[] {(byte) namespace});
  }

  private void put(byte[] k) {
    shard.put(k, k.length, new byte[] {1}, 1);
  }

  private int get(byte[] k) {
    return shard.get(k, k.length, buf);
  }

  @Test
  void aNewShardAnswersReadsOfKeysItNeverHeldWithoutRocksDb() {
    shard = Shard.open(rocks, Runnable::run, 0, tmp.resolve("kg"), null, null, 0);
    put(entry("a", 1));
    shard.checkpoint(tmp.resolve("chk")); // the entry is in an SST now, as after a snapshot
    long before = shard.rocksReads();

    assertThat(get(entry("b", 1))).isEqualTo(RocksDB.NOT_FOUND);
    assertThat(shard.rocksReads()).as("reads that reached RocksDB").isEqualTo(before);
    assertThat(get(entry("a", 1))).isEqualTo(1);
    assertThat(get(entry("a", 2))).isEqualTo(RocksDB.NOT_FOUND); // another namespace of a held key: asked
    assertThat(shard.rocksReads()).isEqualTo(before + 2);
  }

  @Test
  void aFullFilterIsRebuiltFromTheKeysStillHeld() {
    shard = Shard.open(rocks, Runnable::run, 0, tmp.resolve("kg"), null, null, 0);
    int n = KeyFilter.MIN_CAPACITY + 10; // the last additions fill the filter and rebuild it
    for (int i = 0; i < n; i++) {
      put(entry("k" + i, 0));
      if (i % 2 == 1) {
        byte[] k = entry("k" + i, 0);
        shard.delete(k, k.length);
      }
    }
    for (int i = 0; i < n; i++) {
      assertThat(get(entry("k" + i, 0))).as("k" + i).isEqualTo(i % 2 == 0 ? 1 : RocksDB.NOT_FOUND);
    }
    long before = shard.rocksReads();
    for (int i = 1; i < n; i += 2) {
      get(entry("k" + i, 0));
    }
    long asked = shard.rocksReads() - before;
    assertThat(asked).as("deleted keys still asked after the rebuild").isLessThan(n / 20);
  }

  @Test
  void theWriteThatFillsTheFilterIsFoundAfterTheRebuild() {
    shard = Shard.open(rocks, Runnable::run, 0, tmp.resolve("kg"), null, null, 0);
    for (int i = 0; i < 3 * KeyFilter.MIN_CAPACITY; i++) { // fills and rebuilds the filter more than once
      put(entry("k" + i, 0));
      assertThat(get(entry("k" + i, 0))).as("k" + i + ", read right after its write").isEqualTo(1);
    }
  }

  @Test
  void aRestoredShardListsItsKeysOnceEnoughReadsFoundNothing() {
    Path dir = tmp.resolve("kg");
    shard = Shard.open(rocks, Runnable::run, 0, dir, null, null, 0);
    put(entry("kept", 0));
    shard.checkpoint(tmp.resolve("chk"));
    shard.close();
    shard = Shard.open(rocks, Runnable::run, 0, dir, "m", new ShardManifest(0, 1, List.of()), 0);
    assertThat(shard.filtered()).isFalse();

    for (int i = 0; i < KeyFilter.MIN_CAPACITY; i++) {
      assertThat(get(entry("absent" + i, 0))).isEqualTo(RocksDB.NOT_FOUND);
    }
    assertThat(shard.filtered()).isTrue();
    long before = shard.rocksReads();
    assertThat(get(entry("kept", 0))).isEqualTo(1);
    assertThat(get(entry("absent-again", 0))).isEqualTo(RocksDB.NOT_FOUND);
    put(entry("new", 0));
    assertThat(get(entry("new", 0))).isEqualTo(1);
    assertThat(shard.rocksReads() - before).isLessThanOrEqualTo(3);
  }

  @Test
  void aFilterRebuiltInTheBackgroundKnowsTheKeysWrittenWhileItWasListed() {
    java.util.ArrayDeque<Runnable> listings = new java.util.ArrayDeque<>();
    java.util.ArrayDeque<Runnable> cuts = new java.util.ArrayDeque<>();
    shard = Shard.open(rocks, cuts::add, listings::add, Applier.inline(), 0, tmp.resolve("kg"), null, null, 0);
    int n = KeyFilter.MIN_CAPACITY + 10;
    for (int i = 0; i < n; i++) {
      put(entry("k" + i, 0));
      if (i % 2 == 1) {
        byte[] k = entry("k" + i, 0);
        shard.delete(k, k.length);
      }
    }
    assertThat(listings).as("the listing, queued rather than run on the writing thread").hasSize(1);
    assertThat(cuts).as("nothing on the executor that takes the files of cuts").isEmpty();
    put(entry("late", 0)); // after the listing started: it may not see this key
    for (int i = 0; i < n; i++) { // the full filter still answers, rightly
      assertThat(get(entry("k" + i, 0))).as("k" + i).isEqualTo(i % 2 == 0 ? 1 : RocksDB.NOT_FOUND);
    }

    listings.poll().run();
    assertThat(get(entry("late", 0))).as("a key written while the keys were listed").isEqualTo(1);
    long before = shard.rocksReads();
    for (int i = 1; i < n; i += 2) {
      assertThat(get(entry("k" + i, 0))).isEqualTo(RocksDB.NOT_FOUND);
    }
    assertThat(shard.rocksReads() - before).as("deleted keys still asked after the rebuild").isLessThan(n / 20);
  }

  @Test
  void aListingThatStartsAfterItsShardClosedDoesNotTouchIt() {
    java.util.ArrayDeque<Runnable> background = new java.util.ArrayDeque<>();
    shard = Shard.open(rocks, background::add, 0, tmp.resolve("kg"), null, null, 0);
    for (int i = 0; i <= KeyFilter.MIN_CAPACITY; i++) {
      put(entry("k" + i, 0));
    }
    assertThat(background).hasSize(1);
    shard.close();
    shard = null;
    background.poll().run(); // reading the closed RocksDB would crash the JVM
  }
}
