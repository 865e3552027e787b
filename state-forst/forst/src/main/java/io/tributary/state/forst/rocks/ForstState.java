package io.tributary.state.forst.rocks;

import io.tributary.state.Combiner;
import io.tributary.state.StateCodec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksIterator;

/**
 * What every RocksDB-backed state shares: the key layout and reusable buffers.
 *
 * <p>A RocksDB key is {@code stateId (4 bytes) | varint length of the key | key bytes | namespace
 * bytes}. The state id is the murmur3 hash of the state name, so it is stable across processes
 * without a registry; the key length makes a key's entries a prefix range that no other key shares.
 * The current key's prefix is built once per key change and reused by every access.
 */
abstract class ForstState implements KeyPresence {
  final ForstKeyedStateBackend backend;
  final String name;
  private final int stateId;
  private final BytesOut key = new BytesOut(64);
  private final BytesOut value = new BytesOut(64);
  private final BytesIn in = new BytesIn();
  private byte[] readBuf = new byte[256];
  private int readLen;
  private int prefixLen;
  private long prefixVersion = -1;

  ForstState(ForstKeyedStateBackend backend, String name) {
    this.backend = backend;
    this.name = name;
    byte[] n = name.getBytes(StandardCharsets.UTF_8);
    this.stateId = io.tributary.state.Murmur3.hash32(n, 0, n.length);
  }

  int stateId() {
    return stateId;
  }

  /** The key buffer positioned right after the current key's prefix; the current key's shard. */
  final Shard atPrefix() {
    Shard shard = backend.currentShard();
    buildPrefix();
    return shard;
  }

  /**
   * Like {@link #atPrefix} for reads and deletions: the shard is null when the key group has no
   * state yet, and every read of or deletion in a null shard finds nothing.
   */
  final Shard atPrefixIfAny() {
    Shard shard = backend.currentShardIfAny();
    buildPrefix();
    return shard;
  }

  /** {@inheritDoc} Asks the shard's key filter, by the key's hash, when the shard is open. */
  @Override
  public final boolean mayHoldCurrentKey() {
    Shard shard = backend.currentShardIfOpen();
    if (shard == null) {
      return backend.currentGroupMayHoldState();
    }
    return shard.mayHold(KeyFilter.hash(stateId, backend.currentKey().murmurHash()));
  }

  private void buildPrefix() {
    if (backend.keyVersion() != prefixVersion) {
      key.truncate(0);
      key.writeInt(stateId);
      byte[] k = backend.currentKey().bytes();
      key.writeVarInt(k.length);
      key.write(k);
      prefixLen = key.size();
      prefixVersion = backend.keyVersion();
    }
    key.truncate(prefixLen);
  }

  final BytesOut key() {
    return key;
  }

  final int prefixLen() {
    return prefixLen;
  }

  /** Appends {@code namespace} to the key buffer. */
  final <N> void appendNamespace(StateCodec<N> codec, N namespace) {
    try {
      codec.write(namespace, key);
    } catch (IOException e) {
      throw codecFailure("encode a namespace", e);
    }
  }

  /** The value buffer, emptied. */
  final BytesOut valueOut() {
    value.truncate(0);
    return value;
  }

  final <T> BytesOut encode(StateCodec<T> codec, T v) {
    BytesOut out = valueOut();
    try {
      codec.write(v, out);
    } catch (IOException e) {
      throw codecFailure("encode a value", e);
    }
    return out;
  }

  /** Reads the value of the key buffer; false when absent (or {@code shard} is null). Then {@link #valueIn()} reads it. */
  final boolean read(Shard shard) {
    if (shard == null) {
      return false;
    }
    int n = shard.get(key.array(), key.size(), readBuf);
    if (n == RocksDB.NOT_FOUND) {
      return false;
    }
    if (n > readBuf.length) {
      readBuf = new byte[Math.max(n, readBuf.length * 2)];
      n = shard.get(key.array(), key.size(), readBuf);
    }
    readLen = n;
    return true;
  }

  final BytesIn valueIn() {
    return in.reset(readBuf, 0, readLen);
  }

  final <T> T decode(StateCodec<T> codec, BytesIn input) {
    try {
      return codec.read(input);
    } catch (IOException e) {
      throw codecFailure("decode a value", e);
    }
  }

  /**
   * The value {@code in} holds: its first encoded value with every later one (appended by
   * {@link #merge}) folded in, in order, by {@code combiner} (null: a state that never merges).
   */
  final <T> T folded(StateCodec<T> codec, Combiner<T> combiner, BytesIn in) {
    T value = decode(codec, in);
    while (combiner != null && in.hasRemaining()) {
      combiner.combine(value, decode(codec, in));
    }
    return value;
  }

  /**
   * Appends {@code delta} to the value of the key built so far (the merge operator concatenates):
   * an addition that reads nothing. Throws when the state was made without a combiner.
   */
  final <T> void merge(Shard shard, StateCodec<T> codec, Combiner<T> combiner, T delta) {
    if (combiner == null) {
      throw new UnsupportedOperationException("state '" + name + "' was made without a combiner");
    }
    BytesOut v = encode(codec, delta);
    shard.merge(key.array(), key.size(), v.array(), v.size());
  }

  final ForstStateException codecFailure(String what, IOException e) {
    return new ForstStateException("state '" + name + "' cannot " + what, e);
  }

  final void put(Shard shard, BytesOut v) {
    shard.put(key.array(), key.size(), v.array(), v.size());
  }

  final void delete(Shard shard) {
    if (shard == null) {
      return;
    }
    shard.delete(key.array(), key.size());
  }

  /** Receives one entry of a prefix scan: the full RocksDB key (namespace from {@code nsOffset}). */
  interface EntryVisitor {
    void visit(byte[] key, int nsOffset, byte[] value) throws IOException;
  }

  /**
   * Visits every entry of the current key (call {@link #atPrefix} first), in key order. Stops at the
   * first key outside the prefix.
   */
  final void scan(Shard shard, EntryVisitor visitor) {
    if (shard == null || !shard.mayHold(key.array(), prefixLen)) {
      return;
    }
    byte[] prefix = Arrays.copyOf(key.array(), prefixLen);
    try (RocksIterator it = shard.iterator()) {
      for (it.seek(prefix); it.isValid(); it.next()) {
        byte[] k = it.key();
        if (!startsWith(k, prefix)) {
          break;
        }
        visitor.visit(k, prefix.length, it.value());
      }
    } catch (IOException e) {
      throw codecFailure("decode an entry", e);
    }
  }

  /** Deletes every entry of the current key (call {@link #atPrefix} first). */
  final void deleteAll(Shard shard) {
    if (shard == null) {
      return;
    }
    java.util.List<byte[]> keys = new java.util.ArrayList<>();
    scan(shard, (k, ns, v) -> keys.add(k));
    for (byte[] k : keys) {
      shard.delete(k, k.length);
    }
  }

  private static boolean startsWith(byte[] k, byte[] prefix) {
    return k.length >= prefix.length && Arrays.equals(k, 0, prefix.length, prefix, 0, prefix.length);
  }
}
