package io.tributary.worker.net;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.tributary.worker.exchange.Buffer;
import io.tributary.worker.exchange.InboundChannel;
import io.tributary.worker.exchange.InputGate;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The receiving end of a channel whose sender runs on another worker. Buffers arrive on a Netty
 * event loop and are handed to the receiving task's {@link InputGate}; when the task has read one
 * ({@link #recycle}), the sender gets the credit back — unless it was a floating credit and the
 * sender has no backlog any more, in which case it goes back to the gate's pool.
 */
final class RemoteInputChannel implements InboundChannel {
  private final long id;
  private final InputGate gate;
  private final int index;
  private final int exclusive;
  private final FloatingCredits floating;
  private final ConcurrentLinkedQueue<Buffer> free = new ConcurrentLinkedQueue<>();
  // guarded by this
  private Channel connection;
  private int floatingHeld;
  private int lastBacklog;
  private boolean broken;

  RemoteInputChannel(long id, InputGate gate, int index, int exclusive, FloatingCredits floating) {
    this.id = id;
    this.gate = gate;
    this.index = index;
    this.exclusive = exclusive;
    this.floating = floating;
  }

  long id() {
    return id;
  }

  /** The sender opened the channel on {@code c}: it gets the exclusive credits. Event loop. */
  synchronized void connect(Channel c) {
    if (connection == c) {
      return; // opened and bound at the same moment: both found it
    }
    if (connection != null) {
      c.close(); // a second sender for one channel: refused
      return;
    }
    connection = c;
    c.writeAndFlush(Frames.credit(c.alloc(), id, exclusive));
  }

  synchronized boolean connectedTo(Channel c) {
    return connection == c;
  }

  /** A buffer arrived ({@code payload}: its bytes). Event loop. */
  void received(ByteBuf payload, int backlog) {
    int n = payload.readableBytes();
    Buffer b = n <= Buffer.DEFAULT_SIZE ? pooled() : new Buffer(n);
    payload.readBytes(b.data(), 0, n);
    b.setLength(n);
    synchronized (this) {
      lastBacklog = backlog;
    }
    gate.deliver(index, b);
    if (backlog > 0) {
      floating.request(this);
    }
  }

  /** A barrier sent with priority arrived: it goes to the gate's priority lane at once. Event loop. */
  void receivedPriorityBarrier(long checkpointId, long buffers) {
    gate.deliverPriority(index, checkpointId, buffers);
  }

  private Buffer pooled() {
    Buffer b = free.poll();
    return b != null ? b : new Buffer(Buffer.DEFAULT_SIZE);
  }

  synchronized boolean hasBacklog() {
    return lastBacklog > 0 && connection != null && !broken;
  }

  /** The gate lent this channel a floating credit. */
  void grantFloating() {
    synchronized (this) {
      floatingHeld++;
    }
    sendCredit();
  }

  @Override
  public void recycle(Buffer buffer) {
    if (buffer.data().length == Buffer.DEFAULT_SIZE) {
      free.add(buffer);
    }
    boolean giveBack;
    synchronized (this) {
      giveBack = floatingHeld > 0 && lastBacklog == 0;
      if (giveBack) {
        floatingHeld--;
      }
    }
    if (giveBack) {
      floating.release();
    } else {
      sendCredit();
    }
  }

  private void sendCredit() {
    Channel c;
    synchronized (this) {
      c = connection;
    }
    if (c != null && c.isActive()) {
      c.writeAndFlush(Frames.credit(c.alloc(), id, 1));
    }
  }

  /** The connection carrying this channel was lost: the receiving task fails unless the channel ended. */
  void broken(String why) {
    synchronized (this) {
      if (broken) {
        return;
      }
      broken = true;
    }
    gate.deliverFailure(index, DataClient.failure(why, null));
  }
}
