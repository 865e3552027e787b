package io.tributary.worker.exchange;

import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Where the buffers of a receiving task's channels arrive, in arrival order per channel. Written by
 * sender threads, read by the receiving task's thread, which is woken on arrival.
 */
public final class InputGate {
  /**
   * A buffer and the index of the channel it came on; or, with a null buffer, the news that the
   * channel broke ({@code failure}) — which fails the receiving task unless the channel had ended.
   */
  public record Arrival(int channel, Buffer buffer, RuntimeException failure) {
    public Arrival(int channel, Buffer buffer) {
      this(channel, buffer, null);
    }
  }

  /**
   * A barrier sent with priority on channel {@code channel} (unaligned checkpoints): the channel's
   * first {@code buffers} data buffers are before it, whether or not they arrived yet.
   */
  public record PriorityBarrier(int channel, long checkpointId, long buffers) {}

  private final ConcurrentLinkedQueue<Arrival> queue = new ConcurrentLinkedQueue<>();
  private final ConcurrentLinkedQueue<PriorityBarrier> priority = new ConcurrentLinkedQueue<>();
  private final int channels;
  private volatile Runnable wakeup = () -> {};

  public InputGate(int channels) {
    this.channels = channels;
  }

  public int channelCount() {
    return channels;
  }

  /** Sets what wakes the receiving task. */
  public void onArrival(Runnable wakeup) {
    this.wakeup = wakeup;
  }

  /** A buffer of channel {@code channel} arrived. Any thread; per channel in order. */
  public void deliver(int channel, Buffer buffer) {
    queue.add(new Arrival(channel, buffer));
    wakeup.run();
  }

  /** Channel {@code channel} broke (its connection was lost): after what it delivered so far. */
  public void deliverFailure(int channel, RuntimeException failure) {
    queue.add(new Arrival(channel, null, failure));
    wakeup.run();
  }

  /**
   * A barrier of channel {@code channel} overtook its data buffers. Any thread; it is visible to
   * {@link #pollPriority()} before any buffer the channel delivers after this call.
   */
  public void deliverPriority(int channel, long checkpointId, long buffers) {
    priority.add(new PriorityBarrier(channel, checkpointId, buffers));
    wakeup.run();
  }

  /**
   * The next priority barrier, or null. Receiving task thread only. A reader that polls this after
   * {@link #poll()} sees every priority barrier sent before the buffer that poll returned.
   */
  public PriorityBarrier pollPriority() {
    return priority.poll();
  }

  /** The next arrival, or null. Receiving task thread only. */
  public Arrival poll() {
    return queue.poll();
  }
}
