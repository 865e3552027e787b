package io.tributary.worker.exchange;

/**
 * The sending end of a channel between one sender subtask and one receiver subtask (contract C2).
 * The receiver grants credits, one per buffer it is ready to take; a sender without credit keeps its
 * full buffers and stops taking input. Implemented in-process ({@link InProcessChannel}) and over TCP
 * ({@code io.tributary.worker.net}).
 */
public interface OutboundChannel {
  /** Sends {@code buffer} if the receiver granted a credit; returns false (and keeps nothing) if not. */
  boolean trySend(Buffer buffer);

  /**
   * Like {@link #trySend(Buffer)}, telling the receiver that {@code backlog} more full buffers wait
   * behind this one (a receiver may lend extra credit to a channel with backlog).
   */
  default boolean trySend(Buffer buffer, int backlog) {
    return trySend(buffer);
  }

  /**
   * Sends barrier {@code checkpointId} ahead of everything this channel still holds back for
   * credit, without a credit (unaligned checkpoints): the receiver gets it before any buffer sent
   * after this call, and learns from {@code buffers} that the first {@code buffers} data buffers of
   * this channel are the ones before the barrier.
   *
   * @return false if the barrier cannot overtake now (the receiver has not opened the channel yet,
   *     so nothing waits for it either): the caller sends it in-band
   */
  boolean sendPriorityBarrier(long checkpointId, long buffers);

  /** A free buffer to fill: recycled when the receiver returned one, else newly allocated. */
  Buffer freeBuffer();

  /** Called on the sender's thread to be woken (from any thread) when a credit comes back. */
  void onCredit(Runnable wakeup);
}
