package io.tributary.scheduler.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.scheduler.checkpoint.CheckpointStore;
import io.tributary.scheduler.master.RestorePolicy;
import io.tributary.scheduler.metadata.EmbeddedMetadataStore;
import io.tributary.scheduler.metadata.FencedException;
import io.tributary.scheduler.metadata.LeaseLostException;
import io.tributary.scheduler.metadata.MetadataStore;
import io.tributary.state.store.InMemoryObjectStore;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two replicas contend for the leader lease on one store; a leader whose clock passes its grant (it
 * was paused, or cut off) stops leading by itself, the other one takes over with a larger epoch, and
 * from then on the old leader's decisions — a job's status, a new run — are refused by the store.
 */
class LeaderLeaseTest {
  private static final Duration TTL = Duration.ofSeconds(10);

  @TempDir
  Path dir;

  private final ManualClock clock = new ManualClock(Instant.parse("2026-12-01T00:00:00Z"));
  private MetadataStore store;
  private final List<String> told = new ArrayList<>();

  @BeforeEach
  void open() {
    store = new EmbeddedMetadataStore(dir.resolve("metadata"));
  }

  @AfterEach
  void close() {
    store.close();
  }

  private LeaderLease replica(String id) {
    LeaderLease l = new LeaderLease(store, id, TTL, clock);
    l.prepare("http://" + id + ":8080", new LeaderLease.Listener() {
      @Override
      public void elected(long epoch) {
        told.add(id + " elected " + epoch);
      }

      @Override
      public void lost(String why) {
        told.add(id + " lost: " + why);
      }
    });
    return l;
  }

  @Test
  void oneLeadsTheOtherFollowsAndKnowsWhere() {
    LeaderLease a = replica("a");
    LeaderLease b = replica("b");
    a.tick();
    b.tick();
    assertThat(told).containsExactly("a elected 1");
    assertThat(a.leading()).isTrue();
    assertThat(a.epoch()).isEqualTo(1);
    assertThat(b.leading()).isFalse();
    assertThat(b.leaderUrl()).contains("http://a:8080");
    assertThatThrownBy(b::epoch).isInstanceOf(LeaseLostException.class);

    clock.advance(Duration.ofSeconds(5));
    a.tick(); // renews
    clock.advance(Duration.ofSeconds(7));
    b.tick();
    assertThat(b.leading()).as("a renewed: b still follows").isFalse();
    assertThat(a.epoch()).isEqualTo(1);
  }

  @Test
  void aLeaderPausedPastItsLeaseStopsAndItsSuccessorFencesIt() {
    LeaderLease a = replica("a");
    LeaderLease b = replica("b");
    a.tick();
    StatusStore asA = new StatusStore(store, a::epoch);
    asA.put("p", "j", status(ObservedState.RUNNING));
    CheckpointStore checkpointsOfA = new CheckpointStore("j", new InMemoryObjectStore(), store,
        a::epoch);
    checkpointsOfA.beginRun(1);

    clock.advance(TTL.minus(TTL.dividedBy(5))); // a is paused: no renewal
    assertThat(a.leading()).as("a stops leading a fifth of the lease before it lapses").isFalse();
    assertThatThrownBy(() -> asA.put("p", "j", status(ObservedState.FAILED))).isInstanceOf(LeaseLostException.class);
    b.tick();
    assertThat(b.leading()).as("the lease has not lapsed yet").isFalse();
    clock.advance(TTL.dividedBy(5));
    b.tick();
    assertThat(b.epoch()).isEqualTo(2);
    new StatusStore(store, b::epoch).put("p", "j", status(ObservedState.RUNNING));
    new CheckpointStore("j", new InMemoryObjectStore(), store, b::epoch).beginRun(1);

    // a resumes with its clock behind (it believes its grant is still good): the store refuses it
    StatusStore staleA = new StatusStore(store, () -> 1);
    assertThatThrownBy(() -> staleA.put("p", "j", status(ObservedState.FAILED))).isInstanceOf(FencedException.class);
    assertThat(new StatusStore(store, b::epoch).get("p", "j").orElseThrow().observed()).isEqualTo(ObservedState.RUNNING);
    CheckpointStore staleRuns = new CheckpointStore("j", new InMemoryObjectStore(), store, () -> 1);
    assertThatThrownBy(() -> staleRuns.beginRun(1)).as("a stale leader cannot start a run").isInstanceOf(
        FencedException.class);

    a.tick();
    assertThat(told).containsExactly("a elected 1", "b elected 2",
        "a lost: its lease lapsed before it could renew it (paused or cut off from the metadata store)");
    assertThat(a.leaderUrl()).contains("http://b:8080");
  }

  @Test
  void aLeaderThatIsClosedReleasesTheLeaseAtOnce() {
    LeaderLease a = replica("a");
    LeaderLease b = replica("b");
    a.tick();
    a.close();
    b.tick();
    assertThat(b.epoch()).as("b takes over without waiting out the lease").isEqualTo(2);
  }

  private static StatusStore.Status status(ObservedState s) {
    return new StatusStore.Status(s, null, RestorePolicy.LATEST, 0);
  }

  private static final class ManualClock extends Clock {
    private volatile Instant now;

    ManualClock(Instant start) {
      now = start;
    }

    void advance(Duration d) {
      now = now.plus(d);
    }

    @Override
    public Instant instant() {
      return now;
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }
  }
}
