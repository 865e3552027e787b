package io.tributary.state.forst.rocks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A shard's steps run in order, none after a failed one, and at most the budget's bytes wait. */
class ApplierTest {
  final ConcurrentLinkedQueue<Runnable> queue = new ConcurrentLinkedQueue<>();

  /** Waits until {@code t} waits (parked or blocked): spins, bounded, instead of sleeping. */
  static void awaitWaiting(Thread t) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (t.getState() != Thread.State.WAITING && t.getState() != Thread.State.TIMED_WAITING
        && t.getState() != Thread.State.BLOCKED) {
      assertThat(System.nanoTime() - deadline).as("thread %s waits", t.getName()).isNegative();
      Thread.onSpinWait();
    }
  }

  private void runQueue() {
    while (!queue.isEmpty()) {
      queue.poll().run();
    }
  }

  @Test
  void stepsRunInTheOrderTheyWereHandedOverAndNoneAfterAFailedOne() {
    Applier applier = new Applier(queue::add, 1 << 20);
    List<String> ran = new ArrayList<>();
    CompletableFuture<String> first = applier.after(CompletableFuture.completedFuture(null), 10, () -> {
      ran.add("first");
      return "1";
    });
    CompletableFuture<String> failing = applier.after(first, 10, () -> {
      ran.add("failing");
      throw new ForstStateException("disk full");
    });
    CompletableFuture<String> after = applier.after(failing, 10, () -> {
      ran.add("after");
      return "3";
    });
    assertThat(ran).as("nothing runs on the handing thread").isEmpty();

    runQueue();
    assertThat(ran).containsExactly("first", "failing");
    assertThat(first.join()).isEqualTo("1");
    assertThatThrownBy(after::join).hasRootCauseMessage("disk full");
  }

  @Test
  void handingOverBeyondTheBudgetWaitsUntilEarlierStepsRanAndFailuresGiveTheirBytesBack() throws Exception {
    Applier applier = new Applier(queue::add, 100);
    CompletableFuture<Object> failed = applier.after(CompletableFuture.completedFuture(null), 100, () -> {
      throw new IllegalStateException("broken");
    });
    runQueue();
    assertThat(failed).isCompletedExceptionally();

    CompletableFuture<Object> full = applier.after(CompletableFuture.completedFuture(null), 100, () -> "a");
    CompletableFuture<CompletableFuture<Object>> handing = new CompletableFuture<>();
    Thread t = new Thread(() -> handing.complete(applier.after(full, 50, () -> "b")), "handing");
    t.start();
    awaitWaiting(t);
    assertThat(handing).as("the budget is spent").isNotDone();

    queue.poll().run(); // the first step gives its 100 bytes back
    t.join(TimeUnit.SECONDS.toMillis(30));
    assertThat(handing).isDone();
    runQueue();
    assertThat(handing.join().join()).isEqualTo("b");
  }
}
