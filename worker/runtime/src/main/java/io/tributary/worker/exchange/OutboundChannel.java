package io.tributary.worker.exchange;

/**
 * The sending end of a channel between one sender subtask and one receiver subtask (contract C2).
 * The receiver grants credits, one per buffer it is ready to take; a sender without credit keeps its
 * full buffers and stops taking input. Implemented in-process now; a TCP transport implements the
 * same interface.
 */
public interface OutboundChannel {
  /** Sends {@code buffer} if the receiver granted a credit; returns false (and keeps nothing) if not. */
  boolean trySend(Buffer buffer);

  /** A free buffer to fill: recycled when the receiver returned one, else newly allocated. */
  Buffer freeBuffer();

  /** Called on the sender's thread to be woken (from any thread) when a credit comes back. */
  void onCredit(Runnable wakeup);
}
