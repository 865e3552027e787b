package io.tributary.state.forst.rocks;

import io.tributary.state.Combiner;
import io.tributary.state.MapState;
import io.tributary.state.StateCodec;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A map per key: one RocksDB entry per map key, the map key being the namespace.
 *
 * <p>With a combiner, {@link #add} is a RocksDB merge: the merge operator concatenates, so a value
 * is the encoded value last put (if any) followed by every one added since, and reads ({@link #get},
 * {@link #entries}) decode them in turn and fold them in that order. Nothing is read to add.
 */
final class ForstMapState<K, V> extends ForstState implements MapState<K, V> {
  private final StateCodec<K> keyCodec;
  private final StateCodec<V> valueCodec;
  private final Combiner<V> combiner;
  private final BytesIn scanIn = new BytesIn();

  ForstMapState(ForstKeyedStateBackend backend, String name, StateCodec<K> keyCodec,
      StateCodec<V> valueCodec, Combiner<V> combiner) {
    super(backend, name);
    this.keyCodec = keyCodec;
    this.valueCodec = valueCodec;
    this.combiner = combiner;
  }

  @Override
  public V get(K key) {
    Shard shard = atPrefixIfAny();
    appendNamespace(keyCodec, key);
    return read(shard) ? folded(valueCodec, combiner, valueIn()) : null;
  }

  @Override
  public boolean add(K key, V delta) {
    Shard shard = atPrefix();
    appendNamespace(keyCodec, key);
    merge(shard, valueCodec, combiner, delta);
    return false;
  }

  @Override
  public boolean addsWithoutReading() {
    return combiner != null;
  }

  @Override
  public void put(K key, V value) {
    Shard shard = atPrefix();
    appendNamespace(keyCodec, key);
    put(shard, encode(valueCodec, value));
  }

  @Override
  public void remove(K key) {
    Shard shard = atPrefixIfAny();
    appendNamespace(keyCodec, key);
    delete(shard);
  }

  @Override
  public boolean contains(K key) {
    Shard shard = atPrefixIfAny();
    appendNamespace(keyCodec, key);
    return read(shard);
  }

  /** A materialized copy of the current key's entries, in serialized-key order. */
  @Override
  public Iterable<Map.Entry<K, V>> entries() {
    Shard shard = atPrefixIfAny();
    List<Map.Entry<K, V>> out = new ArrayList<>();
    scan(shard, (k, ns, v) -> {
      K mk = keyCodec.read(scanIn.reset(k, ns, k.length - ns));
      out.add(new AbstractMap.SimpleImmutableEntry<>(mk, folded(valueCodec, combiner, scanIn.reset(v, 0, v.length))));
    });
    return out;
  }

  @Override
  public boolean isEmpty() {
    Shard shard = atPrefixIfAny();
    boolean[] any = {false};
    scan(shard, (k, ns, v) -> any[0] = true);
    return !any[0];
  }

  @Override
  public void clear() {
    deleteAll(atPrefixIfAny());
  }
}
