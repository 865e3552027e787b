package io.tributary.boot;

import io.tributary.scheduler.metadata.Item;
import io.tributary.scheduler.metadata.MetadataStore;
import io.tributary.scheduler.metadata.Page;
import java.util.Optional;

/** A metadata store that passes every call to another: tests override the calls they change. */
class ForwardingMetadataStore implements MetadataStore {
  private final MetadataStore store;

  ForwardingMetadataStore(MetadataStore store) {
    this.store = store;
  }

  @Override
  public Optional<Item> get(String key) {
    return store.get(key);
  }

  @Override
  public long put(String key, byte[] value, long expectedVersion) {
    return store.put(key, value, expectedVersion);
  }

  @Override
  public void delete(String key, long expectedVersion) {
    store.delete(key, expectedVersion);
  }

  @Override
  public Page query(String prefix, Optional<String> continuation, int limit) {
    return store.query(prefix, continuation, limit);
  }

  @Override
  public void close() {
    store.close();
  }
}
