package io.tributary.scheduler.metadata;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;

/** The JSON value of a lease item: {@code {"holder":"a","epoch":3,"expiresAtMillis":1700000000000}}. */
record LeaseRecord(String holder, long epoch, long expiresAtMillis) {
  private static final ObjectMapper JSON = new ObjectMapper();

  byte[] encode() {
    try {
      return JSON.writeValueAsBytes(this);
    } catch (IOException e) {
      throw new IllegalStateException("cannot encode lease record", e);
    }
  }

  static LeaseRecord decode(Item item) {
    try {
      return JSON.readValue(item.value(), LeaseRecord.class);
    } catch (IOException e) {
      throw new MetadataStoreException("lease item " + item.key() + " is not a lease: " + e, false, e);
    }
  }
}
