package io.tributary.worker.remote;

import io.tributary.protocol.AttemptId;

/**
 * Where the workers of an attempt come from: what a {@link RemoteWorkerPool} asks when an attempt
 * needs slots and tells when it has them, lets go of them or ends. {@link #SHARED}, the default, is
 * a set of workers someone else keeps (external workers, local worker processes) that any attempt
 * may use: the pool then waits for free slots on any of them. A capacity that makes workers for
 * attempts (the Kubernetes pool's pods per attempt) makes them on {@link #demand}, says with {@link
 * #serves} which may take an attempt's tasks, and removes them on {@link #released}.
 *
 * <p>The life of an attempt, as the pool calls it: {@link #demand} once (in {@code acquire}, before it
 * waits for slots); {@link #serves} any number of times while it waits; {@link #granted} once it has
 * its slots; and in the end either {@link #released} (its workers drop it: it ended, failed, was
 * rescaled or stopped, or {@code acquire} gave up) or {@link #detached} (the pool lets go of it while
 * its workers keep running it, for the next control plane). An attempt an earlier control plane
 * deployed and this pool found running (an orphan) gets no {@link #demand}: only {@link #released}
 * if this pool makes its workers drop it.
 *
 * <p>Implementations are thread-safe. {@link #serves} is called while the pool holds its lock: it
 * must answer from what it knows, without calling the pool or blocking. The others may be called
 * from any thread and must not block on the pool either (they may start work elsewhere).
 */
public interface Capacity {
  /** Any attempt may use any registered worker; nothing is made or removed. */
  Capacity SHARED = new Capacity() {};

  /** {@code attempt} needs {@code slots} slots: make the workers it needs, if this capacity makes them. */
  default void demand(AttemptId attempt, int slots) {}

  /** Whether {@code attempt}'s tasks may run on {@code worker}. Called under the pool's lock. */
  default boolean serves(AttemptId attempt, String worker) {
    return true;
  }

  /** {@code attempt} has its slots (on workers it {@linkplain #serves serves}): it needs no more. */
  default void granted(AttemptId attempt) {}

  /** {@code attempt} is over on this pool, whichever way it ended: its workers may go. */
  default void released(AttemptId attempt) {}

  /**
   * The pool lets go of {@code attempt} without stopping it (this control plane stops leading or shuts
   * down): its workers keep running it for the next control plane, so they stay. Called before the
   * pool forgets the attempt ({@link RemoteWorkerPool#attempts} no longer has it after).
   */
  default void detached(AttemptId attempt) {}

  /**
   * What is missing for {@code attempt}, which did not get its slots in time: the end of {@code
   * acquire}'s failure message, telling the user what to do.
   */
  default String shortage(AttemptId attempt) {
    return "stop another job, or add workers or slots";
  }
}
