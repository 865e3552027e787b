package io.tributary.scheduler.lifecycle;

import java.time.Instant;

/**
 * Something that happened to a job, for its lifecycle history.
 *
 * @param seq grows by one with every event of the job (it starts again at 1 when a job of the same
 *     name is created after a delete)
 * @param from for {@link Type#STATE_CHANGED}: the state left, else null
 * @param to for {@link Type#STATE_CHANGED}: the state entered, else null
 * @param message one line for the user
 */
public record JobEvent(long seq, Instant time, Type type, ObservedState from, ObservedState to, String message) {
  public enum Type {
    /** The job was created with its first spec. */
    CREATED,
    /** A changed spec was applied. */
    SPEC_CHANGED,
    /** The observed state changed; the message says why. */
    STATE_CHANGED,
    /** A run failed again while RECOVERING and restarts once more; the message says why. */
    RUN_FAILED,
    /** A run starts from a checkpoint or savepoint. */
    RESTORING,
    /** A run waits for the workers' slots; the message says how many are free. */
    WAITING,
    /** A savepoint completed. */
    SAVEPOINT,
    /**
     * A checkpoint was aborted (a task declined it, it timed out, or it could not be recorded); the
     * message says which and why. Not repeated for every checkpoint while they keep failing.
     */
    CHECKPOINT_FAILED,
    /** The autoscaler rescales the job; the message has the numbers that drove it. */
    AUTOSCALED
  }
}
