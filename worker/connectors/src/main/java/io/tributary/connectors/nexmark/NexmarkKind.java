package io.tributary.connectors.nexmark;

import io.tributary.stream.Schema;

/** The three Nexmark event kinds, with their record schemas. */
public enum NexmarkKind {
  PERSON("person", "id", "name", "emailAddress", "creditCard", "city", "state", "dateTime", "extra"),
  AUCTION("auction", "id", "itemName", "description", "initialBid", "reserve", "dateTime", "expires",
      "seller", "category", "extra"),
  BID("bid", "auction", "bidder", "price", "channel", "url", "dateTime", "extra");

  private final String eventType;
  private final Schema schema;
  private final Schema eventSchema;

  NexmarkKind(String eventType, String... fields) {
    this.eventType = eventType;
    this.schema = Schema.of(fields);
    String[] withType = new String[fields.length + 1];
    withType[0] = "eventType";
    System.arraycopy(fields, 0, withType, 1, fields.length);
    this.eventSchema = Schema.of(withType);
  }

  /** {@code person}, {@code auction} or {@code bid}: the value of the {@code eventType} field. */
  public String eventType() {
    return eventType;
  }

  /** The fields of this kind of record. */
  public Schema schema() {
    return schema;
  }

  /** The fields with a leading {@code eventType} (records of a mixed stream). */
  public Schema eventSchema() {
    return eventSchema;
  }
}
