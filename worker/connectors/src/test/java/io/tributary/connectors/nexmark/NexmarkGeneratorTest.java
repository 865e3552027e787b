package io.tributary.connectors.nexmark;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.stream.Record;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class NexmarkGeneratorTest {
  @Test
  void fiftyEventsArePersonsAuctionsAndBidsOneToThreeToFortySix() {
    NexmarkGenerator g = new NexmarkGenerator(0, 10_000);
    for (long epoch = 0; epoch < 3; epoch++) {
      long first = epoch * 50;
      Map<Object, Long> counts = LongStream.range(first, first + 50).mapToObj(g::event)
          .collect(Collectors.groupingBy(r -> r.get("eventType"), Collectors.counting()));
      assertThat(counts).containsExactlyInAnyOrderEntriesOf(Map.of("person", 1L, "auction", 3L, "bid", 46L));
    }
  }

  @Test
  void recordsHaveTheStandardFieldNames() {
    NexmarkGenerator g = new NexmarkGenerator(0, 10_000);
    assertThat(g.event(0).schema().names()).containsExactly("eventType", "id", "name", "emailAddress",
        "creditCard", "city", "state", "dateTime", "extra");
    assertThat(g.eventOfKind(1).schema().names()).containsExactly("id", "itemName", "description",
        "initialBid", "reserve", "dateTime", "expires", "seller", "category", "extra");
    assertThat(g.eventOfKind(4).schema().names())
        .containsExactly("auction", "bidder", "price", "channel", "url", "dateTime", "extra");
  }

  @Test
  void fieldValuesHaveTheirTypesAndPlausibleRanges() {
    NexmarkGenerator g = new NexmarkGenerator(7, 1000);
    for (long n = 0; n < 5000; n++) {
      Record r = g.eventOfKind(n);
      assertThat(r.get("dateTime")).as("event %d", n).isEqualTo(NexmarkGenerator.BASE_TIME + n);
      switch (NexmarkIds.kindOf(n)) {
        case PERSON -> {
          assertThat(r.get("id")).isEqualTo(1000 + n / 50);
          assertThat((String) r.get("creditCard")).matches("\\d{4} \\d{4} \\d{4} \\d{4}");
          assertThat((String) r.get("emailAddress")).matches("[a-z ]+@[a-z ]+\\.com");
        }
        case AUCTION -> {
          assertThat((Long) r.get("reserve")).isGreaterThanOrEqualTo((Long) r.get("initialBid"));
          assertThat((Long) r.get("expires")).isGreaterThan((Long) r.get("dateTime"));
          assertThat((Long) r.get("category")).isBetween(10L, 14L);
          assertThat((Long) r.get("seller")).isBetween(1000L, 1000 + n / 50 + 10);
        }
        case BID -> {
          long lastAuction = NexmarkIds.lastBase0AuctionId(n) + 1000;
          assertThat((Long) r.get("auction")).isBetween(1000L, lastAuction + 10);
          assertThat((Long) r.get("bidder")).isBetween(1000L, 1000 + n / 50 + 10);
          assertThat((Long) r.get("price")).isPositive();
          assertThat((String) r.get("url")).startsWith("https://www.nexmark.com/");
          assertThat(((String) r.get("extra")).length()).isBetween(50, 90);
        }
      }
    }
  }

  @Test
  void bidsConcentrateOnHotAuctionsAndChannels() {
    NexmarkGenerator g = new NexmarkGenerator(0, 10_000);
    List<Object[]> bids = LongStream.range(460_000, 464_600)
        .mapToObj(i -> g.bid(NexmarkIds.eventNumber(NexmarkKind.BID, i))).toList();
    Map<Object, Long> byChannel = bids.stream().collect(Collectors.groupingBy(b -> b[3], Collectors.counting()));
    assertThat(byChannel.get("Google")).isBetween(400L, 750L);
    long hotAuctionBids = bids.stream().filter(b -> (Long) b[0] % 100 == 0).count();
    assertThat(hotAuctionBids).as("about half the bids go to the hot auction").isBetween(2000L, 2800L);
  }

  @Test
  void eventIsAPureFunctionOfSeedAndNumber() {
    long seed = new Random().nextLong();
    NexmarkGenerator a = new NexmarkGenerator(seed, 10_000);
    NexmarkGenerator b = new NexmarkGenerator(seed, 10_000);
    Random order = new Random(seed);
    for (int i = 0; i < 2000; i++) {
      long n = order.nextInt(100_000);
      assertThat(a.event(n).asMap()).as("seed %d event %d", seed, n).isEqualTo(b.event(n).asMap());
      b.event(order.nextInt(100_000));
    }
    NexmarkGenerator other = new NexmarkGenerator(seed + 1, 10_000);
    Function<NexmarkGenerator, List<Object>> prices =
        gen -> LongStream.range(4, 50).mapToObj(n -> gen.event(n).get("price")).toList();
    assertThat(prices.apply(a)).as("seed %d", seed).isNotEqualTo(prices.apply(other));
  }

  @Test
  void eventTimeFollowsTheRate() {
    assertThat(new NexmarkGenerator(0, 10_000).eventTime(25)).isEqualTo(NexmarkGenerator.BASE_TIME + 2);
    assertThat(new NexmarkGenerator(0, 3).eventTime(4)).isEqualTo(NexmarkGenerator.BASE_TIME + 1333);
    assertThat(new NexmarkGenerator(0, 0.5).eventTime(3)).isEqualTo(NexmarkGenerator.BASE_TIME + 6000);
  }

  @Test
  void kindIndexesMapToTheirEventNumbers() {
    for (NexmarkKind kind : NexmarkKind.values()) {
      long index = 0;
      for (long n = 0; n < 500; n++) {
        if (NexmarkIds.kindOf(n) == kind) {
          assertThat(NexmarkIds.eventNumber(kind, index++)).as("%s %d", kind, index - 1).isEqualTo(n);
        }
      }
    }
  }
}
