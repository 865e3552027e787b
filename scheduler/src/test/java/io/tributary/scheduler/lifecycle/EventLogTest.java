package io.tributary.scheduler.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.scheduler.metadata.EmbeddedMetadataStore;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Lifecycle events: in order, per job, bounded, durable. */
class EventLogTest {
  private static final Clock CLOCK = Clock.fixed(Instant.parse("2025-01-02T03:04:05Z"), ZoneOffset.UTC);

  @TempDir
  Path tmp;

  @Test
  void eventsAreListedInTheOrderTheyHappenedPerJob() {
    try (EmbeddedMetadataStore metadata = new EmbeddedMetadataStore(tmp)) {
      EventLog log = new EventLog(metadata, CLOCK);
      log.append("p", "a", JobEvent.Type.CREATED, null, null, "created");
      log.append("p", "a-b", JobEvent.Type.CREATED, null, null, "another job");
      log.append("p", "a", JobEvent.Type.STATE_CHANGED, ObservedState.CREATED, ObservedState.DEPLOYING, "deploying");
      log.append("q", "a", JobEvent.Type.CREATED, null, null, "another project");

      List<JobEvent> events = log.list("p", "a");
      assertThat(events).extracting(JobEvent::seq).containsExactly(1L, 2L);
      assertThat(events).extracting(JobEvent::message).containsExactly("created", "deploying");
      assertThat(events.get(1).from()).isEqualTo(ObservedState.CREATED);
      assertThat(events.get(1).to()).isEqualTo(ObservedState.DEPLOYING);
      assertThat(events.get(1).time()).isEqualTo(CLOCK.instant());
      assertThat(log.list("p", "a-b")).extracting(JobEvent::message).containsExactly("another job");
    }
  }

  @Test
  void aJobKeepsItsLastEventsAndNumbersOnAfterAReopen() {
    try (EmbeddedMetadataStore metadata = new EmbeddedMetadataStore(tmp)) {
      EventLog log = new EventLog(metadata, CLOCK);
      for (int i = 1; i <= EventLog.RETAINED + 5; i++) {
        log.append("p", "a", JobEvent.Type.RUN_FAILED, null, null, "event " + i);
      }
      List<JobEvent> events = log.list("p", "a");
      assertThat(events).hasSize(EventLog.RETAINED);
      assertThat(events.get(0).message()).isEqualTo("event 6");
      assertThat(events.get(EventLog.RETAINED - 1).seq()).isEqualTo(EventLog.RETAINED + 5);
    }
    try (EmbeddedMetadataStore metadata = new EmbeddedMetadataStore(tmp)) {
      EventLog log = new EventLog(metadata, CLOCK);
      assertThat(log.append("p", "a", JobEvent.Type.RUN_FAILED, null, null, "after reopen").seq())
          .isEqualTo(EventLog.RETAINED + 6);
      assertThat(log.list("p", "a")).hasSize(EventLog.RETAINED).last()
          .extracting(JobEvent::message).isEqualTo("after reopen");
      log.deleteAll("p", "a");
      assertThat(log.list("p", "a")).isEmpty();
      assertThat(log.append("p", "a", JobEvent.Type.CREATED, null, null, "a new job").seq()).isEqualTo(1);
    }
  }

  @Test
  void aLongMessageIsCut() {
    try (EmbeddedMetadataStore metadata = new EmbeddedMetadataStore(tmp)) {
      EventLog log = new EventLog(metadata, CLOCK);
      JobEvent e = log.append("p", "a", JobEvent.Type.RUN_FAILED, null, null, "x".repeat(10_000));
      assertThat(e.message()).hasSize(EventLog.MAX_MESSAGE + 3).endsWith("...");
    }
  }

  @Test
  void aTypeWrittenByANewerVersionReadsAsAStateChange() {
    assertThat(EventLog.type("WAITING")).isEqualTo(JobEvent.Type.WAITING);
    assertThat(EventLog.type("SOMETHING_NEWER")).isEqualTo(JobEvent.Type.STATE_CHANGED);
  }
}
