package io.tributary.scheduler.metadata.dynamo;

import io.tributary.scheduler.metadata.Item;
import io.tributary.scheduler.metadata.Keys;
import java.util.HashMap;
import java.util.Map;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The table layout: partition key {@code group} (the key's first two segments, see {@link
 * Keys#group}), sort key {@code key} (the whole key), {@code version} (number) and {@code value}
 * (binary, left out when empty). A prefix query is a Query on one group with {@code
 * begins_with(key, prefix)}, in sort-key order — which is key order, as keys are ASCII.
 */
final class DynamoItems {
  static final String GROUP = "group";
  static final String KEY = "key";
  static final String VERSION = "version";
  static final String VALUE = "value";

  private DynamoItems() {}

  /** The primary key of {@code key}'s item. */
  static Map<String, AttributeValue> primaryKey(String key) {
    Map<String, AttributeValue> primary = new HashMap<>();
    primary.put(GROUP, string(Keys.group(key)));
    primary.put(KEY, string(key));
    return primary;
  }

  static Map<String, AttributeValue> attributes(Item item) {
    Map<String, AttributeValue> attributes = primaryKey(item.key());
    attributes.put(VERSION, number(item.version()));
    if (item.size() > 0) {
      attributes.put(VALUE, AttributeValue.fromB(SdkBytes.fromByteArrayUnsafe(item.value())));
    }
    return attributes;
  }

  static Item item(Map<String, AttributeValue> attributes) {
    AttributeValue value = attributes.get(VALUE);
    return new Item(
        attributes.get(KEY).s(),
        version(attributes),
        value == null ? new byte[0] : value.b().asByteArrayUnsafe());
  }

  static long version(Map<String, AttributeValue> attributes) {
    return Long.parseLong(attributes.get(VERSION).n());
  }

  static AttributeValue string(String value) {
    return AttributeValue.fromS(value);
  }

  static AttributeValue number(long value) {
    return AttributeValue.fromN(Long.toString(value));
  }
}
