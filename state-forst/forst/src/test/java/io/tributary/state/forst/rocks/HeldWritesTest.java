package io.tributary.state.forst.rocks;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteBatch;

/**
 * Writes a shard holds back are RocksDB's own batch format, and every read sees them as if they had
 * been written at once.
 */
class HeldWritesTest {
  @TempDir
  Path tmp;
  RocksResources rocks;
  Shard shard;

  @BeforeEach
  void open() {
    rocks = new RocksResources(8L << 20, 16L << 20);
    shard = Shard.open(rocks, Runnable::run, 0, tmp.resolve("kg"), null, null, 0);
  }

  @AfterEach
  void close() {
    shard.close();
    rocks.close();
  }

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void heldWritesAreSerializedExactlyAsRocksDbSerializesTheSameBatch() throws Exception {
    byte[] longValue = new byte[300]; // a length that needs two varint bytes
    HeldWrites held = new HeldWrites(16, 1 << 20);
    held.put(b("k1"), 2, b("v1"), 2);
    held.merge(b("k2"), 2, longValue, longValue.length);
    held.delete(b("k3"), 2);
    try (WriteBatch expected = new WriteBatch()) {
      expected.put(b("k1"), b("v1"));
      expected.merge(b("k2"), longValue);
      expected.delete(b("k3"));
      assertThat(held.take()).isEqualTo(expected.data());
    }
    assertThat(held.isEmpty()).isTrue();
    assertThat(held.mayHold(b("k1"), 2)).isFalse();
  }

  @Test
  void aValueFarLargerThanTheBoundIsWrittenAndTheNextBatchIsRightToo() throws Exception {
    HeldWrites held = new HeldWrites(16, 64);
    byte[] large = new byte[1000];
    held.put(b("big"), 3, large, large.length);
    assertThat(held.full()).isTrue();
    try (WriteBatch expected = new WriteBatch()) {
      expected.put(b("big"), large);
      assertThat(held.take()).isEqualTo(expected.data());
    }
    held.put(b("k"), 1, b("v"), 1);
    try (WriteBatch expected = new WriteBatch()) {
      expected.put(b("k"), b("v"));
      assertThat(held.take()).isEqualTo(expected.data());
    }
  }

  @Test
  void knowsWhichKeysItMayHoldAndWhenItIsFull() {
    HeldWrites held = new HeldWrites(3, 1 << 20);
    held.put(b("a"), 1, b("1"), 1);
    held.delete(b("b"), 1);
    assertThat(held.mayHold(b("a"), 1)).isTrue();
    assertThat(held.mayHold(b("b"), 1)).isTrue();
    assertThat(held.mayHold(b("c"), 1)).isFalse(); // certain here: a distinct hash
    assertThat(held.full()).isFalse();
    held.put(b("a"), 1, b("2"), 1); // the same key again still counts as a write
    assertThat(held.full()).isTrue();
    assertThat(held.count()).isEqualTo(3);

    HeldWrites bytes = new HeldWrites(100, 64);
    bytes.put(b("k"), 1, new byte[60], 60);
    assertThat(bytes.full()).as("full by size").isTrue();
  }

  @Test
  void pointReadsIteratorsAndCheckpointsSeeEveryHeldWrite() {
    byte[] buf = new byte[16];
    shard.put(b("a"), 1, b("1"), 1);
    shard.put(b("b"), 1, b("2"), 1);
    shard.merge(b("b"), 1, b("3"), 1); // the merge operator concatenates
    shard.delete(b("c"), 1);
    assertThat(shard.get(b("a"), 1, buf)).isEqualTo(1);
    assertThat(buf[0]).isEqualTo((byte) '1');
    assertThat(shard.get(b("b"), 1, buf)).isEqualTo(2);
    assertThat(new String(buf, 0, 2, StandardCharsets.UTF_8)).isEqualTo("23");

    shard.put(b("c"), 1, b("4"), 1);
    shard.delete(b("a"), 1);
    assertThat(keys()).containsExactly("b", "c");
    assertThat(shard.get(b("a"), 1, buf)).isEqualTo(RocksDB.NOT_FOUND);

    shard.put(b("d"), 1, b("5"), 1);
    shard.checkpoint(tmp.resolve("chk"));
    try (RocksDB copy = RocksDB.openReadOnly(tmp.resolve("chk").toString())) {
      assertThat(copy.get(b("d"))).isEqualTo(b("5"));
      assertThat(copy.get(b("a"))).isNull();
    } catch (org.rocksdb.RocksDBException e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void manyMoreWritesThanAreHeldAtOnceAllArrive() {
    int n = Shard.HELD_WRITES * 5 + 7;
    for (int i = 0; i < n; i++) {
      byte[] k = b("key-" + i);
      shard.put(k, k.length, b("v" + i), ("v" + i).length());
    }
    byte[] buf = new byte[16];
    for (int i = 0; i < n; i++) {
      byte[] k = b("key-" + i);
      int len = shard.get(k, k.length, buf);
      assertThat(new String(buf, 0, len, StandardCharsets.UTF_8)).isEqualTo("v" + i);
    }
    assertThat(keys()).hasSize(n);
  }

  private List<String> keys() {
    List<String> out = new ArrayList<>();
    try (RocksIterator it = shard.iterator()) {
      for (it.seekToFirst(); it.isValid(); it.next()) {
        out.add(new String(it.key(), StandardCharsets.UTF_8));
      }
    }
    return out;
  }
}
