package io.tributary.connectors.nexmark;

import static io.tributary.connectors.nexmark.NexmarkIds.FIRST_AUCTION_ID;
import static io.tributary.connectors.nexmark.NexmarkIds.FIRST_CATEGORY_ID;
import static io.tributary.connectors.nexmark.NexmarkIds.FIRST_PERSON_ID;
import static io.tributary.connectors.nexmark.NexmarkStrings.nextExtra;
import static io.tributary.connectors.nexmark.NexmarkStrings.nextString;

import io.tributary.stream.Record;

/**
 * The Nexmark event generator, ported from the Apache Beam / Flink Nexmark generator: persons,
 * auctions and bids in the 1:3:46 proportion (see {@link NexmarkIds}), hot auctions, sellers and
 * bidders, hot channels, and {@code extra} padding to the standard average sizes (200, 500, 100).
 *
 * <p>Event {@code n} is a pure function of {@code (seed, n)}: as in Beam, its random numbers come
 * from a generator reseeded for the event, so any slice of the event numbers can be generated
 * independently. Unlike Beam, the seed is {@code n} (plus a multiple of {@code seed}) scrambled
 * by SplitMix64: {@code java.util.Random}'s first draws for consecutive seeds are correlated over
 * runs of thousands of events, which made Beam's hot/cold choices come in long streaks. Its event
 * time is {@code baseTime + n * 1000 / eventRate} ms ({@code baseTime} is {@link #BASE_TIME} unless
 * given). Differences from Beam: channel URLs are derived from the channel number
 * (Beam caches URLs drawn from a shared random, which depends on history), and {@code extra} uses
 * letters only.
 *
 * <p>For benchmarks without the framework, loop over {@link #bid(long)} with {@code
 * NexmarkIds.eventNumber(NexmarkKind.BID, i)}: it returns the bid's field values in {@link
 * NexmarkKind#BID} schema order. Not thread-safe: one instance per thread.
 */
public final class NexmarkGenerator {
  /** Event time of event 0 unless given: 2026-01-01T00:00:00Z. */
  public static final long BASE_TIME = io.tributary.connectors.internal.GeneratorStart.DEFAULT;

  private static final String[] STATES = {"AZ", "CA", "ID", "OR", "WA", "WY"};
  private static final String[] CITIES = {"Phoenix", "Los Angeles", "San Francisco", "Boise",
      "Portland", "Bend", "Redmond", "Seattle", "Kent", "Cheyenne"};
  private static final String[] FIRST_NAMES = {"Peter", "Paul", "Luke", "John", "Saul", "Vicky",
      "Kate", "Julie", "Sarah", "Deiter", "Walter"};
  private static final String[] LAST_NAMES = {"Shultz", "Abrams", "Spencer", "White", "Bartels",
      "Walton", "Smith", "Jones", "Noris"};
  private static final String[] HOT_CHANNELS = {"Google", "Facebook", "Baidu", "Apple"};
  private static final int HOT_AUCTION_RATIO = 100;
  private static final int HOT_SELLER_RATIO = 100;
  private static final int HOT_BIDDER_RATIO = 100;
  private static final int HOT_AUCTIONS_ODDS = 2;
  private static final int HOT_SELLERS_ODDS = 4;
  private static final int HOT_BIDDERS_ODDS = 4;
  private static final int HOT_CHANNELS_ODDS = 2;
  private static final int CHANNELS = 10_000;
  private static final int NUM_CATEGORIES = 5;
  private static final long EVENTS_FOR_IN_FLIGHT_AUCTIONS = (long) NexmarkIds.NUM_IN_FLIGHT_AUCTIONS
      * NexmarkIds.PROPORTION_DENOMINATOR / NexmarkIds.AUCTION_PROPORTION;

  private final long seedOffset;
  private final long baseTime;
  private final double msPerEvent;
  private final long rate;
  private final NexmarkRandom random = new NexmarkRandom();
  private final NexmarkChannels channels;

  /**
   * @param seed varies all events
   * @param eventRate event-time events per second (&gt; 0)
   */
  public NexmarkGenerator(long seed, double eventRate) {
    this(seed, eventRate, BASE_TIME);
  }

  /**
   * @param seed varies all events
   * @param eventRate event-time events per second (&gt; 0)
   * @param baseTime the event time (epoch ms) of event 0
   */
  public NexmarkGenerator(long seed, double eventRate, long baseTime) {
    this.baseTime = baseTime;
    if (!(eventRate > 0)) {
      throw new IllegalArgumentException("eventRate must be > 0: " + eventRate);
    }
    this.seedOffset = seed * 0x9E3779B97F4A7C15L;
    boolean whole = eventRate == Math.rint(eventRate) && eventRate < Integer.MAX_VALUE;
    this.rate = whole ? (long) eventRate : 0;
    this.msPerEvent = 1000.0 / eventRate;
    this.channels = new NexmarkChannels(seed, HOT_CHANNELS.length);
  }

  /** Event time (epoch ms) of event number {@code n}. */
  public long eventTime(long n) {
    return baseTime + (rate > 0 ? n * 1000 / rate : (long) (n * msPerEvent));
  }

  /** Event {@code n} as a record whose schema starts with {@code eventType}. */
  public Record event(long n) {
    NexmarkKind kind = NexmarkIds.kindOf(n);
    Object[] values = new Object[kind.eventSchema().size()];
    values[0] = kind.eventType();
    fill(kind, n, values, 1);
    return new Record(kind.eventSchema(), values, Record.NO_TIMESTAMP);
  }

  /** Event {@code n} as a record of its kind's schema (no {@code eventType}). */
  public Record eventOfKind(long n) {
    NexmarkKind kind = NexmarkIds.kindOf(n);
    Object[] values = new Object[kind.schema().size()];
    fill(kind, n, values, 0);
    return new Record(kind.schema(), values, Record.NO_TIMESTAMP);
  }

  /** The field values of a bid made at event number {@code n}, in {@link NexmarkKind#BID} order. */
  public Object[] bid(long n) {
    Object[] values = new Object[7];
    fillBid(n, values, 0);
    return values;
  }

  private void fill(NexmarkKind kind, long n, Object[] out, int at) {
    switch (kind) {
      case PERSON -> fillPerson(n, out, at);
      case AUCTION -> fillAuction(n, out, at);
      case BID -> fillBid(n, out, at);
    }
  }

  private void fillPerson(long n, Object[] out, int at) {
    NexmarkRandom r = reseed(n);
    String name = FIRST_NAMES[r.nextInt(FIRST_NAMES.length)] + ' ' + LAST_NAMES[r.nextInt(LAST_NAMES.length)];
    String email = nextString(r, 7, ' ') + '@' + nextString(r, 5, ' ') + ".com";
    String card = NexmarkStrings.nextCreditCard(r);
    String city = CITIES[r.nextInt(CITIES.length)];
    String state = STATES[r.nextInt(STATES.length)];
    int size = 8 + name.length() + email.length() + card.length() + city.length() + state.length();
    out[at] = NexmarkIds.lastBase0PersonId(n) + FIRST_PERSON_ID;
    out[at + 1] = name;
    out[at + 2] = email;
    out[at + 3] = card;
    out[at + 4] = city;
    out[at + 5] = state;
    out[at + 6] = eventTime(n);
    out[at + 7] = nextExtra(r, size, 200);
  }

  private void fillAuction(long n, Object[] out, int at) {
    NexmarkRandom r = reseed(n);
    long seller = r.nextInt(HOT_SELLERS_ODDS) > 0
        ? NexmarkIds.lastBase0PersonId(n) / HOT_SELLER_RATIO * HOT_SELLER_RATIO
        : NexmarkIds.nextBase0PersonId(n, r);
    long category = FIRST_CATEGORY_ID + r.nextInt(NUM_CATEGORIES);
    long initialBid = nextPrice(r);
    long time = eventTime(n);
    long horizon = eventTime(n + EVENTS_FOR_IN_FLIGHT_AUCTIONS) - time;
    long expires = time + 1 + r.nextBelow(Math.max(horizon * 2, 1));
    String name = nextString(r, 20, ' ');
    String description = nextString(r, 100, ' ');
    long reserve = initialBid + nextPrice(r);
    int size = 8 + name.length() + description.length() + 8 + 8 + 8 + 8 + 8;
    out[at] = NexmarkIds.lastBase0AuctionId(n) + FIRST_AUCTION_ID;
    out[at + 1] = name;
    out[at + 2] = description;
    out[at + 3] = initialBid;
    out[at + 4] = reserve;
    out[at + 5] = time;
    out[at + 6] = expires;
    out[at + 7] = seller + FIRST_PERSON_ID;
    out[at + 8] = category;
    out[at + 9] = nextExtra(r, size, 500);
  }

  private void fillBid(long n, Object[] out, int at) {
    NexmarkRandom r = reseed(n);
    long auction = r.nextInt(HOT_AUCTIONS_ODDS) > 0
        ? NexmarkIds.lastBase0AuctionId(n) / HOT_AUCTION_RATIO * HOT_AUCTION_RATIO
        : NexmarkIds.nextBase0AuctionId(n, r);
    long bidder = r.nextInt(HOT_BIDDERS_ODDS) > 0
        ? NexmarkIds.lastBase0PersonId(n) / HOT_BIDDER_RATIO * HOT_BIDDER_RATIO + 1
        : NexmarkIds.nextBase0PersonId(n, r);
    long price = nextPrice(r);
    if (r.nextInt(HOT_CHANNELS_ODDS) > 0) {
      int i = r.nextInt(HOT_CHANNELS.length);
      out[at + 3] = HOT_CHANNELS[i];
      out[at + 4] = channels.hotUrl(i);
    } else {
      int channel = r.nextInt(CHANNELS);
      out[at + 3] = channels.name(channel);
      out[at + 4] = channels.url(channel);
    }
    out[at] = auction + FIRST_AUCTION_ID;
    out[at + 1] = bidder + FIRST_PERSON_ID;
    out[at + 2] = price;
    out[at + 5] = eventTime(n);
    out[at + 6] = nextExtra(r, 32, 100);
  }

  private NexmarkRandom reseed(long n) {
    random.reseed(n + seedOffset);
    return random;
  }

  /** Prices (in cents) spread log-uniformly over [1, 100_000_000). */
  private static long nextPrice(NexmarkRandom r) {
    return Math.round(Math.pow(10.0, r.nextDouble() * 6.0) * 100.0);
  }
}
