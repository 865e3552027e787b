package io.tributary.worker.remote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.protocol.AttemptId;
import io.tributary.protocol.WorkerException;
import io.tributary.protocol.WorkerSlots;
import io.tributary.worker.task.ConnectorFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pool asks its {@link Capacity} which workers serve an attempt and tells it what attempts need
 * and when they end: two real workers (over gRPC in this JVM) of two slots each, and a capacity that
 * gives each attempt its own workers.
 */
@Timeout(60)
class CapacityTest {
  private static final String SECRET = "capacity-test-secret";
  private static final AttemptId A = new AttemptId("p--a", 1);
  private static final AttemptId B = new AttemptId("p--b", 1);

  @TempDir
  Path tmp;

  private RemoteWorkerPool pool;
  private WorkerProcess w1;
  private WorkerProcess w2;
  private final Recording capacity = new Recording(Map.of(A, Set.of("w2"), B, Set.of("w2")));

  @BeforeEach
  void start() throws InterruptedException {
    pool = new RemoteWorkerPool(RemoteWorkerPool.Settings.of(SECRET, tmp.resolve("objects").toString())
        .withCapacityTimeout(Duration.ofMillis(500)));
    w1 = worker("w1");
    w2 = worker("w2");
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (pool.workers().size() < 2) {
      assertThat(System.nanoTime()).as("both workers join").isLessThan(deadline);
      Thread.sleep(20); // polling a condition with a deadline
    }
  }

  private WorkerProcess worker(String id) {
    return WorkerProcess.start(new WorkerProcess.Config("127.0.0.1:" + pool.port(), id, 2, tmp.resolve(id),
        "127.0.0.1", "127.0.0.1", 0, SECRET, ConnectorFactory::standard, Duration.ZERO));
  }

  @AfterEach
  void stop() {
    w1.close();
    w2.close();
    pool.close();
  }

  @Test
  void anAttemptGetsOnlyTheWorkersThatServeItAndTheCapacityHearsOfItsLife() {
    pool.useCapacity(capacity);

    assertThat(pool.acquire(A, 2)).containsExactly(new WorkerSlots("w2", 2));
    assertThat(capacity.calls).containsExactly("demand p--a#1 2", "granted p--a#1");

    // w1 has two free slots, but B may use only w2, whose slots A holds
    assertThatThrownBy(() -> pool.acquire(B, 1)).isInstanceOf(WorkerException.class).hasMessage(
        "attempt p--b#1 needs 1 slot, but the 1 worker it may use has 0 free (of 2) after waiting 500 ms; "
            + "w2 is taken");
    pool.release(B); // as a job master does after a failed acquire: B never had slots, yet its workers may go
    pool.release(A);
    assertThat(capacity.calls).containsExactly("demand p--a#1 2", "granted p--a#1", "demand p--b#1 1",
        "released p--b#1", "released p--a#1");
    assertThat(pool.attempts()).isEmpty();
    assertThat(pool.acquire(B, 2)).containsExactly(new WorkerSlots("w2", 2));
  }

  @Test
  void aDeployedAttemptLetGoOfIsDetachedAndOneNotDeployedIsReleased() {
    pool.useCapacity(capacity);
    AttemptId c = new AttemptId("p--c", 3);
    capacity.serving.put(c, Set.of("w1"));
    pool.acquire(c, 1);
    pool.deploy(ReattachTest.deployment(c, "w1"), r -> { });
    pool.acquire(A, 1);
    assertThat(pool.attempts()).containsExactlyInAnyOrder(A, c);

    pool.detach(c);
    pool.detach(A);

    assertThat(capacity.calls).containsSubsequence("detached p--c#3", "released p--a#1")
        .doesNotContain("released p--c#3", "detached p--a#1");
    assertThat(pool.attempts()).isEmpty();
  }

  @Test
  void withoutACapacityEveryAttemptMayUseEveryWorkerAndOnlyOneCapacityIsTaken() {
    assertThat(pool.capacity()).isSameAs(Capacity.SHARED);
    java.util.List<String> waits = new java.util.ArrayList<>();
    assertThat(pool.acquire(A, 4, waits::add)).extracting(WorkerSlots::slots).containsExactly(2, 2);
    assertThat(waits).as("free at once: no wait").isEmpty();
    assertThatThrownBy(() -> pool.acquire(B, 1, waits::add))
        .hasMessageContaining("the 2 workers of the pool have 0 free (of 4)")
        .hasMessageEndingWith("; stop another job, or add workers or slots");
    assertThat(waits).as("told once, before it waits").singleElement().asString()
        .startsWith("waiting up to ").endsWith(" for 1 free slot: the 2 workers of the pool have 0 free (of 4)");

    pool.useCapacity(capacity);
    assertThatThrownBy(() -> pool.useCapacity(new Recording(Map.of()))).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void anAttemptNeedingMoreSlotsThanThePoolsOwnWorkersHaveInAllFailsAtOnceAsAUserError() {
    pool.ownWorkers(2, 2, needed -> "start " + needed + " slots");

    // no wait for slots that never come (the capacity timeout would say "after waiting 500 ms")
    assertThatThrownBy(() -> pool.acquire(A, 5)).isInstanceOfSatisfying(WorkerException.class, e -> {
      assertThat(e.failure().retryable()).isFalse();
      assertThat(e.failure().domain()).isEqualTo(io.tributary.protocol.Failure.Domain.USER);
    }).hasMessage("attempt p--a#1 needs 5 slots, but the pool's 2 workers have 4 in all (2 each); start 5 slots");
    pool.release(A);

    // all of them is not too many; and when they are busy, the wait is as before (retryable)
    assertThat(pool.acquire(A, 4)).extracting(WorkerSlots::slots).containsExactly(2, 2);
    assertThatThrownBy(() -> pool.acquire(B, 1)).isInstanceOfSatisfying(WorkerException.class,
        e -> assertThat(e.failure().retryable()).isTrue()).hasMessageContaining("after waiting 500 ms");
  }

  /** Serves each attempt on the workers it is given, and records what the pool tells it. */
  private static final class Recording implements Capacity {
    final Map<AttemptId, Set<String>> serving;
    final List<String> calls = new CopyOnWriteArrayList<>();

    Recording(Map<AttemptId, Set<String>> serving) {
      this.serving = new java.util.concurrent.ConcurrentHashMap<>(serving);
    }

    @Override
    public void demand(AttemptId attempt, int slots) {
      calls.add("demand " + attempt + " " + slots);
    }

    @Override
    public boolean serves(AttemptId attempt, String worker) {
      return serving.getOrDefault(attempt, Set.of()).contains(worker);
    }

    @Override
    public void granted(AttemptId attempt) {
      calls.add("granted " + attempt);
    }

    @Override
    public void released(AttemptId attempt) {
      calls.add("released " + attempt);
    }

    @Override
    public void detached(AttemptId attempt) {
      calls.add("detached " + attempt);
    }

    @Override
    public String shortage(AttemptId attempt) {
      return String.join(", ", serving.get(attempt)) + " is taken";
    }
  }
}
