package io.tributary.scheduler.metadata;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Leases and epoch-fenced writes on the embedded store, with a clock the test moves. */
class LeaseTest {
  private static final String LEASE = "leases/control-plane/leader";
  private static final String POINTER = "jobs/j/checkpoints/latest";
  private static final Duration TTL = Duration.ofSeconds(10);

  @TempDir Path dir;
  private MetadataStore store;
  private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));

  @BeforeEach
  void open() {
    store = new EmbeddedMetadataStore(dir);
  }

  @AfterEach
  void close() {
    store.close();
  }

  private Lease lease(String holder) {
    return new Lease(store, LEASE, holder, TTL, clock);
  }

  @Test
  void twoContendersNeverBothHoldItAndEpochsOnlyGrow() {
    long seed = new Random().nextLong();
    System.out.println("LeaseTest seed " + seed);
    Random random = new Random(seed);
    List<Lease> leases = List.of(lease("a"), lease("b"));
    List<Optional<LeaseGrant>> grants = new ArrayList<>(List.of(Optional.empty(), Optional.empty()));
    long lastEpoch = 0;
    for (int step = 0; step < 400; step++) {
      String context = "seed " + seed + ", step " + step;
      clock.advance(Duration.ofMillis(random.nextInt(4000)));
      int who = random.nextInt(2);
      Optional<LeaseGrant> after = act(leases.get(who), grants.get(who), random.nextInt(3));
      if (after.isPresent() && (grants.get(who).isEmpty() || after.get().epoch() != grants.get(who).get().epoch())) {
        assertThat(after.get().epoch()).as(context).isGreaterThan(lastEpoch);
        lastEpoch = after.get().epoch();
      }
      grants.set(who, after);
      long holding = grants.stream().filter(g -> g.isPresent() && g.get().isValidAt(clock.instant())).count();
      assertThat(holding).as(context).isLessThanOrEqualTo(1);
    }
    assertThat(lastEpoch).as("seed " + seed + ": the lease changed hands").isGreaterThan(2);
  }

  private static Optional<LeaseGrant> act(Lease lease, Optional<LeaseGrant> grant, int action) {
    if (grant.isEmpty() || action == 0) {
      return lease.tryAcquire().or(() -> grant);
    }
    if (action == 1) {
      return lease.renew(grant.get());
    }
    lease.release(grant.get());
    return Optional.empty();
  }

  @Test
  void aStaleHolderCannotRenewReleaseOrWriteAfterATakeover() {
    Lease a = lease("a");
    Lease b = lease("b");
    LeaseGrant stale = a.tryAcquire().orElseThrow();
    long v1 = FencedWrites.write(store, POINTER, stale.epoch(), "chk-1".getBytes(UTF_8), 0);
    clock.advance(TTL.plusMillis(1));
    LeaseGrant fresh = b.tryAcquire().orElseThrow();
    FencedWrites.fence(store, POINTER, fresh.epoch());

    assertThat(a.renew(stale)).isEmpty();
    a.release(stale);
    assertThat(b.current().orElseThrow()).isEqualTo(fresh);
    long fenced = FencedWrites.read(store, POINTER).orElseThrow().version();
    assertThatThrownBy(() -> FencedWrites.write(store, POINTER, stale.epoch(), "chk-2".getBytes(UTF_8), fenced))
        .isInstanceOfSatisfying(FencedException.class, e -> {
          assertThat(e.writerEpoch()).isEqualTo(stale.epoch());
          assertThat(e.currentEpoch()).isEqualTo(fresh.epoch());
          assertThat(e.retryable()).isFalse();
        });
    assertThatThrownBy(() -> FencedWrites.write(store, POINTER, stale.epoch(), "chk-2".getBytes(UTF_8), v1))
        .isInstanceOf(FencedException.class);
    FencedWrites.write(store, POINTER, fresh.epoch(), "chk-2".getBytes(UTF_8), fenced);
    assertThat(new String(FencedWrites.read(store, POINTER).orElseThrow().body(), UTF_8)).isEqualTo("chk-2");
  }

  @Test
  void fencingAnAbsentItemKeepsAStaleWriterFromCreatingIt() {
    FencedWrites.fence(store, POINTER, 5);
    assertThat(FencedWrites.read(store, POINTER).orElseThrow().body()).isEmpty();
    assertThatThrownBy(() -> FencedWrites.write(store, POINTER, 4, "x".getBytes(UTF_8), 0))
        .isInstanceOf(FencedException.class);
  }

  @Test
  void releaseLetsAnotherTakeOverAtOnceWithANewEpoch() {
    Lease a = lease("a");
    LeaseGrant first = a.tryAcquire().orElseThrow();
    a.release(first);
    LeaseGrant second = lease("b").tryAcquire().orElseThrow();
    assertThat(second.epoch()).isEqualTo(first.epoch() + 1);
    assertThat(a.tryAcquire()).isEmpty();
  }

  @Test
  void renewalKeepsTheEpochAndExtendsTheExpiry() {
    Lease a = lease("a");
    LeaseGrant grant = a.tryAcquire().orElseThrow();
    clock.advance(Duration.ofSeconds(6));
    LeaseGrant renewed = a.renew(grant).orElseThrow();
    assertThat(renewed.epoch()).isEqualTo(grant.epoch());
    assertThat(renewed.expiresAt()).isEqualTo(grant.expiresAt().plusSeconds(6));
    clock.advance(Duration.ofSeconds(6));
    assertThat(lease("b").tryAcquire()).isEmpty();
  }

  @Test
  void ofManyThreadsAcquiringAtOnceExactlyOneWins() throws Exception {
    int threads = 6;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    CountDownLatch start = new CountDownLatch(1);
    try {
      List<Future<Optional<LeaseGrant>>> results = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        Lease lease = lease("replica-" + t);
        results.add(pool.submit(() -> {
          start.await();
          return lease.tryAcquire();
        }));
      }
      start.countDown();
      List<LeaseGrant> winners = new ArrayList<>();
      for (Future<Optional<LeaseGrant>> result : results) {
        result.get(1, TimeUnit.MINUTES).ifPresent(winners::add);
      }
      assertThat(winners).hasSize(1);
      assertThat(lease("x").current()).contains(winners.get(0));
    } finally {
      pool.shutdownNow();
    }
  }
}
