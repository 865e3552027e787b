package io.tributary.scheduler.observe;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

/** A source's backlog as observed now and then, and how fast it grows. */
class SourceBacklogsTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  @Test
  void theGrowthIsTheSlopeOverTheLastMinuteOfObservations() {
    SourceBacklogs b = new SourceBacklogs();
    assertThat(b.current()).isEmpty();
    b.observe("orders", 1_000, T0);
    assertThat(b.current().get("orders")).as("one observation: no growth yet")
        .isEqualTo(new SourceBacklogs.Backlog(1_000, 0));
    b.observe("orders", 6_000, T0.plusSeconds(10));
    assertThat(b.current().get("orders").growthPerSecond()).isEqualTo(500);
    // a backlog that is drained shrinks: negative growth
    for (int s = 15; s <= 120; s += 5) {
      b.observe("orders", 6_000 - (s - 10) * 40L, T0.plusSeconds(s));
    }
    SourceBacklogs.Backlog now = b.current().get("orders");
    assertThat(now.records()).isEqualTo(1_600);
    assertThat(now.growthPerSecond()).as("over the last minute only: 4000 → 1600").isEqualTo(-40.0);
  }

  @Test
  void aNewAttemptOrAClockThatGoesBackStartsOver() {
    SourceBacklogs b = new SourceBacklogs();
    b.observe("orders", 100, T0);
    b.observe("orders", 200, T0.plusSeconds(10));
    b.observe("orders", 50, T0.plusSeconds(5));
    assertThat(b.current().get("orders")).isEqualTo(new SourceBacklogs.Backlog(50, 0));
    b.clear();
    assertThat(b.current()).isEmpty();
  }
}
