package io.tributary.scheduler.observe;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

/** A source's backlog as observed now and then, and the rate it is written at. */
class SourceBacklogsTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  @Test
  void theWriteRateIsTheGrowthOfWhatWasEverWrittenOverTheLastFifteenSeconds() {
    SourceBacklogs b = new SourceBacklogs();
    assertThat(b.current()).isEmpty();
    b.observe("orders", 1_000, 50_000, 4, T0);
    assertThat(b.current().get("orders")).as("one observation: no rate yet")
        .isEqualTo(new SourceBacklogs.Backlog(1_000, OptionalDouble.empty(), 4));
    b.observe("orders", 6_000, 55_000, 4, T0.plusSeconds(5));
    assertThat(b.current().get("orders").writtenPerSecond()).hasValue(1_000);
    // the writers slow down to 200/s: after 15 s only the new rate counts
    long written = 55_000;
    for (int s = 10; s <= 40; s += 5) {
      written += 1_000;
      b.observe("orders", 3_000, written, 4, T0.plusSeconds(s));
    }
    b.observe("orders", 3_000, written + 1_000, 6, T0.plusSeconds(45));
    SourceBacklogs.Backlog now = b.current().get("orders");
    assertThat(now.records()).isEqualTo(3_000);
    assertThat(now.writtenPerSecond()).hasValue(200);
    assertThat(now.splits()).as("the topic got two partitions more").isEqualTo(6);
  }

  @Test
  void aNewAttemptAClockThatGoesBackOrARecreatedTopicStartsOver() {
    SourceBacklogs b = new SourceBacklogs();
    b.observe("orders", 100, 1_000, 4, T0);
    b.observe("orders", 200, 2_000, 4, T0.plusSeconds(10));
    b.observe("orders", 50, 2_500, 4, T0.plusSeconds(5));
    assertThat(b.current().get("orders")).isEqualTo(new SourceBacklogs.Backlog(50, OptionalDouble.empty(), 4));
    b.observe("orders", 10, 20, 4, T0.plusSeconds(15));
    assertThat(b.current().get("orders").writtenPerSecond()).as("fewer records ever written: a new topic").isEmpty();
    b.clear();
    assertThat(b.current()).isEmpty();
  }
}
