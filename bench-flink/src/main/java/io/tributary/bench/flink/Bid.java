package io.tributary.bench.flink;

import io.tributary.stream.Record;

/** A Nexmark bid as a Flink POJO (serialized field by field, no Kryo). */
public final class Bid {
  public long auction;
  public long bidder;
  public long price;
  public String channel;
  public String url;
  public long dateTime;
  public String extra;

  /** For Flink's POJO serializer. */
  public Bid() {}

  /** The bid of a Tributary record of schema {@code auction, bidder, price, channel, url, dateTime, extra}. */
  static Bid of(Record r) {
    Object[] v = r.values();
    Bid b = new Bid();
    b.auction = (Long) v[0];
    b.bidder = (Long) v[1];
    b.price = (Long) v[2];
    b.channel = (String) v[3];
    b.url = (String) v[4];
    b.dateTime = (Long) v[5];
    b.extra = (String) v[6];
    return b;
  }
}
