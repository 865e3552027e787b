package io.tributary.scheduler.spec;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.Callable;

/**
 * The time validating and planning one spec may take on the calling thread, checked between
 * expressions (each one is bounded in size, so the gaps are short). A thread that is interrupted
 * (the request it works for went away) stops at the next check.
 */
public final class SpecBudget {
  /** The default budget of one validation and plan. */
  public static final Duration DEFAULT = Duration.ofSeconds(2);
  private static final ThreadLocal<Long> DEADLINE = new ThreadLocal<>();

  private SpecBudget() {}

  /**
   * Runs {@code work} within {@code budget} (a budget already running on this thread is kept).
   *
   * @throws InvalidSpecException if the budget runs out
   * @throws CancellationException if the thread is interrupted
   */
  public static <T> T within(Duration budget, Callable<T> work) {
    boolean outer = DEADLINE.get() == null;
    if (outer) {
      DEADLINE.set(System.nanoTime() + budget.toNanos());
    }
    try {
      return work.call();
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException(e);
    } finally {
      if (outer) {
        DEADLINE.remove();
      }
    }
  }

  /**
   * Throws if the current budget ran out or the thread was interrupted; a thread without a budget
   * is only checked for interruption.
   */
  public static void check() {
    if (Thread.currentThread().isInterrupted()) {
      throw new CancellationException("the request was cancelled");
    }
    Long deadline = DEADLINE.get();
    if (deadline != null && System.nanoTime() - deadline > 0) {
      throw new InvalidSpecException(List.of(new SpecError("", "validating and planning the spec took longer than "
          + DEFAULT.toMillis() + " ms; make its expressions smaller or fewer")));
    }
  }
}
