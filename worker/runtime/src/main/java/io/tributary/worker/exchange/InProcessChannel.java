package io.tributary.worker.exchange;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A channel between two tasks of one process. Buffers move by reference; credits bound how many
 * are in flight, so memory stays bounded and a slow receiver slows the sender.
 */
public final class InProcessChannel implements OutboundChannel, InboundChannel {
  /** Buffers a receiver accepts per channel before the sender must wait. */
  public static final int DEFAULT_CREDITS = 4;

  private final InputGate gate;
  private final int channelIndex;
  private final int bufferSize;
  private final AtomicInteger credits;
  private final ConcurrentLinkedQueue<Buffer> free = new ConcurrentLinkedQueue<>();
  private volatile Runnable creditWakeup = () -> {};

  public InProcessChannel(InputGate gate, int channelIndex, int credits, int bufferSize) {
    this.gate = gate;
    this.channelIndex = channelIndex;
    this.bufferSize = bufferSize;
    this.credits = new AtomicInteger(credits);
  }

  @Override
  public boolean trySend(Buffer buffer) {
    if (credits.get() <= 0) {
      return false;
    }
    credits.decrementAndGet(); // single sender thread: no race between get and decrement
    gate.deliver(channelIndex, buffer);
    return true;
  }

  @Override
  public boolean sendPriorityBarrier(long checkpointId, long buffers) {
    gate.deliverPriority(channelIndex, checkpointId, buffers);
    return true;
  }

  @Override
  public Buffer freeBuffer() {
    Buffer b = free.poll();
    if (b == null) {
      return new Buffer(bufferSize);
    }
    b.length = 0;
    return b;
  }

  @Override
  public void onCredit(Runnable wakeup) {
    this.creditWakeup = wakeup;
  }

  @Override
  public void recycle(Buffer buffer) {
    if (buffer.data.length == bufferSize) {
      free.add(buffer);
    }
    credits.incrementAndGet();
    creditWakeup.run();
  }

  /** Credits currently available to the sender (for tests and metrics). */
  public int availableCredits() {
    return credits.get();
  }
}
