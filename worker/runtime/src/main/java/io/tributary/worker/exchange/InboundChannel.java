package io.tributary.worker.exchange;

/** The receiving end of a channel: buffers arrive on the receiver's {@link InputGate}. */
public interface InboundChannel {
  /** The receiver consumed {@code buffer}: return it and one credit to the sender. */
  void recycle(Buffer buffer);
}
