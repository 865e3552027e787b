package io.tributary.checkpoint;

/**
 * Records an unaligned checkpoint caught in flight on the channels into one task (contract C3):
 * they had not reached its state when it snapshotted, and are replayed into a restored task before
 * it reads its channels.
 *
 * @param object the object holding them (every record of the task, whichever chain head it fed)
 * @param subtask the index of the subtask that logged them (records of forward and rebalance
 *     exchanges go to new subtask {@code subtask % parallelism} on a restore at another parallelism;
 *     records of hash exchanges go to the subtask owning their key group)
 * @param records how many of them the operator this state belongs to was fed
 * @param bytes the size of the object
 */
public record InFlightState(String object, int subtask, long records, long bytes) {}
