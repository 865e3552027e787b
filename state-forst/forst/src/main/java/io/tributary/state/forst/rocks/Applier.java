package io.tributary.state.forst.rocks;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.Semaphore;

/**
 * Writes shards' held batches into RocksDB off the task thread ({@link Shard}), each shard's steps
 * in the order they were handed over and each only after the one before it succeeded: a step after
 * a failed one fails too, without touching RocksDB. Inserting into a memtable is most of what a
 * write costs, and most of what a snapshot's synchronous part cost when the state cache wrote its
 * dirty entries down and the shards applied them on the task thread.
 *
 * <p>The batches queued here, over all shards, are bounded by {@link #budgetBytes}: the thread
 * handing one over waits while the bound is reached, so a task that writes faster than RocksDB takes
 * it is held back, as it was when it applied its writes itself.
 */
final class Applier {
  /** Bytes of batches queued at most, over the shards of a process. */
  static final int BUDGET_BYTES = 32 << 20;
  private final Executor executor;
  private final int budgetBytes;
  private final Semaphore budget;

  /** An applier running steps on {@code executor} with at most {@code budgetBytes} of batches queued. */
  Applier(Executor executor, int budgetBytes) {
    this.executor = executor;
    this.budgetBytes = budgetBytes;
    this.budget = new Semaphore(budgetBytes);
  }

  /** Steps run on the thread that hands them over, at once (for tests of a shard alone). */
  static Applier inline() {
    return new Applier(Runnable::run, Integer.MAX_VALUE);
  }

  /** A step of a shard's writes: RocksDB work that returns a value. */
  interface Step<T> {
    T run() throws Exception;
  }

  /**
   * Runs {@code step}, which queues {@code bytes}, once {@code previous} (the shard's last step)
   * completed: its result is {@code step}'s, or the failure of {@code previous} or of {@code step}.
   * Waits first while the budget is spent.
   */
  <T> CompletableFuture<T> after(CompletableFuture<?> previous, int bytes, Step<T> step) {
    int permits = Math.min(bytes, budgetBytes);
    try {
      budget.acquire(permits);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ForstStateException("interrupted while waiting for RocksDB to take earlier writes", e);
    }
    try {
      return previous.handleAsync((ok, failed) -> {
        try {
          if (failed != null) {
            throw failed instanceof CompletionException c ? c : new CompletionException(failed);
          }
          return step.run();
        } catch (CompletionException e) {
          throw e;
        } catch (Exception e) {
          throw new CompletionException(e);
        } finally {
          budget.release(permits);
        }
      }, executor);
    } catch (RuntimeException e) {
      budget.release(permits); // not queued (the executor is shut down)
      throw e;
    }
  }
}
