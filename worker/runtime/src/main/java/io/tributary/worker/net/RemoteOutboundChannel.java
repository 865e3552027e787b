package io.tributary.worker.net;

import io.netty.channel.Channel;
import io.tributary.worker.exchange.Buffer;
import io.tributary.worker.exchange.OutboundChannel;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The sending end of a channel whose receiver runs on another worker: a buffer goes out only with a
 * credit the receiver granted (contract C2); its bytes are copied into the frame, so the buffer is
 * free again at once. Credits arrive on the connection's event loop and wake the sending task.
 */
final class RemoteOutboundChannel implements OutboundChannel {
  private final long id;
  private final DataClient.Connection connection;
  private final AtomicInteger credits = new AtomicInteger();
  private final ConcurrentLinkedQueue<Buffer> free = new ConcurrentLinkedQueue<>();
  private volatile Runnable creditWakeup = () -> {};
  private volatile String failure;
  /** The receiver granted credits once: it bound the channel. */
  private volatile boolean credited;

  RemoteOutboundChannel(long id, DataClient.Connection connection) {
    this.id = id;
    this.connection = connection;
  }

  long id() {
    return id;
  }

  @Override
  public boolean trySend(Buffer buffer) {
    return trySend(buffer, 0);
  }

  @Override
  public boolean trySend(Buffer buffer, int backlog) {
    if (failure != null) {
      throw DataClient.failure(failure, null);
    }
    if (credits.get() <= 0) {
      return false;
    }
    credits.decrementAndGet(); // one sending thread: no race between get and decrement
    Channel c = connection.channel();
    c.writeAndFlush(Frames.buffer(c.alloc(), id, backlog, buffer.data(), buffer.length()));
    if (buffer.data().length == Buffer.DEFAULT_SIZE) {
      free.add(buffer);
    }
    return true;
  }

  @Override
  public boolean sendPriorityBarrier(long checkpointId, long buffers) {
    if (failure != null) {
      throw DataClient.failure(failure, null);
    }
    if (!credited) {
      return false; // the receiver has not bound the channel yet, and would refuse the frame
    }
    Channel c = connection.channel();
    c.writeAndFlush(Frames.priorityBarrier(c.alloc(), id, checkpointId, buffers));
    return true;
  }

  @Override
  public Buffer freeBuffer() {
    Buffer b = free.poll();
    if (b == null) {
      return new Buffer(Buffer.DEFAULT_SIZE);
    }
    b.setLength(0);
    return b;
  }

  @Override
  public void onCredit(Runnable wakeup) {
    this.creditWakeup = wakeup;
  }

  /** The receiver granted {@code n} credits. Event loop. */
  void credited(int n) {
    credited = true;
    credits.addAndGet(n);
    creditWakeup.run();
  }

  /** The connection broke: the next send fails the task (woken now, in case it waits for credit). */
  void broken(String why) {
    failure = why;
    creditWakeup.run();
  }

  /** Credits the receiver granted and the sender has not used (for tests). */
  int availableCredits() {
    return credits.get();
  }
}
