package io.tributary.worker.task;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The task thread's mailbox: anything from another thread (a control command, a returned credit,
 * arriving input) becomes mail or a wake-up here and is handled on the task thread, so operators
 * need no locks.
 */
public final class Mailbox {
  private final ConcurrentLinkedQueue<Runnable> mail = new ConcurrentLinkedQueue<>();
  private volatile Thread owner;
  private volatile boolean signalled;

  /** Binds the mailbox to the calling (task) thread. */
  void bindToCurrentThread() {
    owner = Thread.currentThread();
  }

  /** Puts {@code action} in the mailbox; it runs on the task thread. Any thread. */
  public void send(Runnable action) {
    mail.add(action);
    wakeup();
  }

  /** Wakes the task thread if it waits. Any thread; cheap when already signalled. */
  public void wakeup() {
    if (!signalled) {
      signalled = true;
      Thread t = owner;
      if (t != null) {
        LockSupport.unpark(t);
      }
    }
  }

  /** Runs all queued mail; true if any ran. Task thread only. */
  boolean runMail() {
    boolean any = false;
    Runnable r;
    while ((r = mail.poll()) != null) {
      r.run();
      any = true;
    }
    return any;
  }

  /**
   * Waits until woken or {@code maxWaitNanos} passed. A wake-up that came since the last wait makes
   * this return at once. Task thread only.
   */
  void await(long maxWaitNanos) {
    long deadline = System.nanoTime() + maxWaitNanos;
    while (!signalled && mail.isEmpty()) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        break;
      }
      LockSupport.parkNanos(this, Math.min(left, TimeUnit.MILLISECONDS.toNanos(100)));
      if (Thread.interrupted()) {
        break;
      }
    }
    signalled = false;
  }
}
