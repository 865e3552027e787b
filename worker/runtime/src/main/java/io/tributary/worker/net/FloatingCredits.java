package io.tributary.worker.net;

import java.util.ArrayDeque;

/**
 * The floating credits of one input gate: a few extra buffers the receiver lends, one at a time, to
 * channels whose sender has a backlog, and takes back when the channel has none. Thread-safe.
 */
final class FloatingCredits {
  private int available;
  private final ArrayDeque<RemoteInputChannel> waiting = new ArrayDeque<>();

  FloatingCredits(int credits) {
    this.available = credits;
  }

  /** {@code channel}'s sender has a backlog: lend it a credit now, or when one comes back. */
  void request(RemoteInputChannel channel) {
    synchronized (this) {
      if (available == 0) {
        if (!waiting.contains(channel)) {
          waiting.add(channel);
        }
        return;
      }
      available--;
    }
    channel.grantFloating();
  }

  /** A lent credit came back: lend it to the next waiting channel that still has a backlog. */
  void release() {
    RemoteInputChannel next;
    synchronized (this) {
      while ((next = waiting.poll()) != null && !next.hasBacklog()) {
        // its backlog is gone: skip it
      }
      if (next == null) {
        available++;
        return;
      }
    }
    next.grantFloating();
  }

  synchronized int available() {
    return available;
  }
}
