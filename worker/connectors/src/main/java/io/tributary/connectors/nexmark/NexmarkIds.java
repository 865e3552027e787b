package io.tributary.connectors.nexmark;

/**
 * The Nexmark event-number arithmetic (pure functions). Events come in epochs of 50: event 0 of
 * an epoch is a person, events 1-3 auctions, events 4-49 bids (the 1:3:46 proportion). Person and
 * auction ids are dense and derived from the event number, so any event can be generated without
 * generating the ones before it.
 */
public final class NexmarkIds {
  static final int PERSON_PROPORTION = 1;
  static final int AUCTION_PROPORTION = 3;
  static final int BID_PROPORTION = 46;
  static final int PROPORTION_DENOMINATOR = PERSON_PROPORTION + AUCTION_PROPORTION + BID_PROPORTION;
  static final long FIRST_PERSON_ID = 1000;
  static final long FIRST_AUCTION_ID = 1000;
  static final long FIRST_CATEGORY_ID = 10;
  static final int NUM_ACTIVE_PEOPLE = 1000;
  static final int NUM_IN_FLIGHT_AUCTIONS = 100;
  static final int PERSON_ID_LEAD = 10;
  static final int AUCTION_ID_LEAD = 10;

  private NexmarkIds() {}

  /** The kind of event number {@code n}. */
  public static NexmarkKind kindOf(long n) {
    long rem = n % PROPORTION_DENOMINATOR;
    if (rem < PERSON_PROPORTION) {
      return NexmarkKind.PERSON;
    }
    return rem < PERSON_PROPORTION + AUCTION_PROPORTION ? NexmarkKind.AUCTION : NexmarkKind.BID;
  }

  /** The event number of the {@code index}-th event (from 0) of {@code kind}. */
  public static long eventNumber(NexmarkKind kind, long index) {
    return switch (kind) {
      case PERSON -> index * PROPORTION_DENOMINATOR;
      case AUCTION -> index / AUCTION_PROPORTION * PROPORTION_DENOMINATOR
          + PERSON_PROPORTION + index % AUCTION_PROPORTION;
      case BID -> index / BID_PROPORTION * PROPORTION_DENOMINATOR
          + PERSON_PROPORTION + AUCTION_PROPORTION + index % BID_PROPORTION;
    };
  }

  /** The 0-based id of the last person generated at or before event {@code n}. */
  static long lastBase0PersonId(long n) {
    long epoch = n / PROPORTION_DENOMINATOR;
    long offset = n % PROPORTION_DENOMINATOR;
    if (offset >= PERSON_PROPORTION) {
      offset = PERSON_PROPORTION - 1;
    }
    return epoch * PERSON_PROPORTION + offset;
  }

  /** The 0-based id of the last auction generated at or before event {@code n}. */
  static long lastBase0AuctionId(long n) {
    long epoch = n / PROPORTION_DENOMINATOR;
    long offset = n % PROPORTION_DENOMINATOR;
    if (offset < PERSON_PROPORTION) {
      epoch--;
      offset = AUCTION_PROPORTION - 1;
    } else if (offset >= PERSON_PROPORTION + AUCTION_PROPORTION) {
      offset = AUCTION_PROPORTION - 1;
    } else {
      offset -= PERSON_PROPORTION;
    }
    return epoch * AUCTION_PROPORTION + offset;
  }

  /** A random active person, or one of a few not generated yet (the 'lead'). */
  static long nextBase0PersonId(long n, NexmarkRandom random) {
    long numPeople = lastBase0PersonId(n) + 1;
    long activePeople = Math.min(numPeople, NUM_ACTIVE_PEOPLE);
    return numPeople - activePeople + random.nextBelow(activePeople + PERSON_ID_LEAD);
  }

  /** A random auction likely still in flight, or one of a few not generated yet. */
  static long nextBase0AuctionId(long n, NexmarkRandom random) {
    long maxAuction = lastBase0AuctionId(n);
    long minAuction = Math.max(maxAuction - NUM_IN_FLIGHT_AUCTIONS, 0);
    return minAuction + random.nextBelow(maxAuction - minAuction + 1 + AUCTION_ID_LEAD);
  }
}
