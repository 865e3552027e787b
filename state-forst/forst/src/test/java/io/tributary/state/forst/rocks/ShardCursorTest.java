package io.tributary.state.forst.rocks;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.RocksDB;

/**
 * Reads in ascending key order go through a cursor: they answer exactly as point reads, whatever
 * was written, merged or deleted between them, held or applied.
 */
class ShardCursorTest {
  private static final int KEYS = 400;

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

  /** A key as the states write them: state id, the key's length, the key. */
  private static byte[] key(int i) {
    byte[] k = String.format("key-%05d", i).getBytes(StandardCharsets.UTF_8);
    byte[] out = new byte[5 + k.length];
    out[3] = 7;
    out[4] = (byte) k.length;
    System.arraycopy(k, 0, out, 5, k.length);
    return out;
  }

  @Test
  void ascendingReadsAnswerAsPointReadsWhateverHappensBetweenThem() {
    long seed = System.nanoTime();
    Random r = new Random(seed);
    TreeMap<Integer, String> model = new TreeMap<>();
    byte[] buf = new byte[16];
    for (int op = 0; op < 4_000; op++) {
      int k = r.nextInt(KEYS);
      switch (r.nextInt(10)) {
        case 0, 1, 2 -> {
          String v = "v" + r.nextInt(1000);
          shard.put(key(k), key(k).length, v.getBytes(StandardCharsets.UTF_8), v.length());
          model.put(k, v);
        }
        case 3 -> {
          String v = "+" + r.nextInt(10);
          shard.merge(key(k), key(k).length, v.getBytes(StandardCharsets.UTF_8), v.length());
          model.merge(k, v, String::concat);
        }
        case 4 -> {
          shard.delete(key(k), key(k).length);
          model.remove(k);
        }
        default -> { // a run of reads upwards from k, now and then a write amid them
          for (int i = k, n = 1 + r.nextInt(30); i < KEYS && n > 0; i += 1 + r.nextInt(3), n--) {
            if (r.nextInt(20) == 0) {
              int w = i + r.nextInt(5);
              shard.put(key(w), key(w).length, "w".getBytes(StandardCharsets.UTF_8), 1);
              model.put(w, "w");
            }
            int len = shard.get(key(i), key(i).length, buf);
            if (len > buf.length) {
              buf = new byte[len];
              len = shard.get(key(i), key(i).length, buf);
            }
            String got = len == RocksDB.NOT_FOUND ? null : new String(buf, 0, len, StandardCharsets.UTF_8);
            assertThat(got).as("key %d after op %d (seed %d)", i, op, seed).isEqualTo(model.get(i));
          }
        }
      }
    }
    assertThat(shard.cursorReads()).as("reads through a cursor").isGreaterThan(1_000);
  }
}
