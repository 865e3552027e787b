package io.tributary.state.forst.rocks;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

class KeyFilterTest {
  /** A RocksDB key as {@link ForstState} lays it out: state id, varint key length, key, namespace. */
  static byte[] key(int stateId, byte[] key, byte[] namespace) {
    BytesOut out = new BytesOut(16);
    out.writeInt(stateId);
    out.writeVarInt(key.length);
    out.write(key, 0, key.length);
    out.write(namespace, 0, namespace.length);
    return java.util.Arrays.copyOf(out.array(), out.size());
  }

  @Test
  void thePrefixEndsAfterTheKeyWhateverTheLengthOfItsLengthField() {
    assertThat(KeyFilter.prefixLength(key(7, new byte[3], new byte[5]), 13)).isEqualTo(8);
    assertThat(KeyFilter.prefixLength(key(7, new byte[300], new byte[5]), 311)).isEqualTo(306);
    assertThat(KeyFilter.prefixLength(key(7, new byte[0], new byte[0]), 5)).isEqualTo(5);
  }

  @Test
  void aPrefixHashesAsItsStateIdAndTheKeysOwnHash() {
    Random random = new Random(7);
    for (int len : new int[] {0, 1, 8, 127, 128, 300, 20_000}) {
      byte[] k = new byte[len];
      random.nextBytes(k);
      io.tributary.state.Key key = io.tributary.state.Key.fromBytes(k);
      int stateId = random.nextInt();
      byte[] rocksKey = key(stateId, k, new byte[] {9, 9});
      assertThat(KeyFilter.hash(rocksKey, KeyFilter.prefixLength(rocksKey, rocksKey.length)))
          .as("key of %d bytes", len)
          .isEqualTo(KeyFilter.hash(stateId, key.murmurHash()))
          .isNotEqualTo(KeyFilter.hash(stateId + 1, key.murmurHash()));
    }
  }

  @Test
  void neverDeniesAnAddedPrefixAndRarelyAdmitsAnother() {
    Random random = new Random(42);
    KeyFilter f = new KeyFilter(KeyFilter.MIN_CAPACITY);
    byte[][] added = new byte[f.capacity()][];
    for (int i = 0; i < added.length; i++) {
      byte[] k = new byte[1 + random.nextInt(12)];
      random.nextBytes(k);
      added[i] = key(3, k, new byte[] {1, 2});
      f.add(added[i], KeyFilter.prefixLength(added[i], added[i].length));
    }
    for (byte[] k : added) {
      byte[] otherNamespace = java.util.Arrays.copyOf(k, k.length + 4);
      assertThat(f.mayHold(otherNamespace, KeyFilter.prefixLength(otherNamespace, otherNamespace.length))).isTrue();
    }
    int admitted = 0;
    for (int i = 0; i < 100_000; i++) {
      byte[] k = key(4, Long.toString(i).getBytes(), new byte[0]); // another state id: never added
      admitted += f.mayHold(k, k.length) ? 1 : 0;
    }
    assertThat(admitted).as("false positives in 100,000").isLessThan(3_000);
    assertThat(f.full()).isFalse();
  }

  @Test
  void isFullOnceMorePrefixesThanItsCapacityWereAdded() {
    KeyFilter f = new KeyFilter(10); // raised to the minimum
    assertThat(f.capacity()).isEqualTo(KeyFilter.MIN_CAPACITY);
    for (int i = 0; i <= f.capacity() + 200; i++) {
      byte[] k = key(1, Integer.toString(i).getBytes(), new byte[0]);
      f.add(k, k.length);
      f.add(k, k.length); // the same prefix again does not count
    }
    assertThat(f.full()).isTrue();
  }
}
