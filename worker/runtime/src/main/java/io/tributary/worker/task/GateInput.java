package io.tributary.worker.task;

import io.tributary.stream.Barrier;
import io.tributary.stream.EndOfInput;
import io.tributary.stream.IdleStatus;
import io.tributary.stream.Record;
import io.tributary.stream.StreamElement;
import io.tributary.stream.Watermark;
import io.tributary.worker.exchange.ElementReader;
import io.tributary.worker.exchange.InboundChannel;
import io.tributary.worker.exchange.InputGate;

/**
 * Input from upstream tasks (contract C3): the task's watermark is the minimum over channels that
 * are neither idle nor ended; when every open channel is idle, the task is idle; when every channel
 * has ended, the watermark goes to the end of time and the input ends.
 */
final class GateInput implements TaskInput {
  private static final int MAX_ELEMENTS_PER_STEP = 4096;

  private final InputGate gate;
  private final InboundChannel[] channels;
  private final ChainNode[] heads;
  private final ElementReader[] readers;
  private final long[] watermarks;
  private final boolean[] idle;
  private final boolean[] ended;
  private int endedCount;
  private long combined = Watermark.NONE;
  private long lastBarrier = Long.MIN_VALUE;
  private InputGate.Arrival current;
  private StreamTask task;

  /**
   * @param channels the inbound channels by gate channel index
   * @param heads the chain head each channel feeds, by gate channel index
   * @param endedFromStart channels known to carry nothing (a source subtask without splits): they
   *     never hold back the watermark
   */
  GateInput(InputGate gate, InboundChannel[] channels, ChainNode[] heads, boolean[] endedFromStart) {
    this.gate = gate;
    this.channels = channels;
    this.heads = heads;
    int n = channels.length;
    this.readers = new ElementReader[n];
    for (int i = 0; i < n; i++) {
      readers[i] = new ElementReader();
    }
    this.watermarks = new long[n];
    java.util.Arrays.fill(watermarks, Watermark.NONE);
    this.idle = new boolean[n];
    this.ended = endedFromStart.clone();
    for (boolean e : ended) {
      endedCount += e ? 1 : 0;
    }
  }

  @Override
  public void open(StreamTask task) {
    this.task = task;
    gate.onArrival(task.mailbox()::wakeup);
    if (endedCount == channels.length) {
      recompute(); // nothing will ever come: the watermark goes to the end of time
    }
  }

  @Override
  public int step() {
    int processed = 0;
    while (processed < MAX_ELEMENTS_PER_STEP) {
      if (current == null) {
        current = gate.poll();
        if (current == null) {
          if (processed > 0) {
            return MORE;
          }
          return endedCount == channels.length ? END : NOTHING;
        }
        readers[current.channel()].reset(current.buffer());
      }
      int c = current.channel();
      ElementReader reader = readers[c];
      while (reader.hasNext()) {
        if (!task.canTakeInput()) {
          return MORE;
        }
        handle(c, reader.next());
        processed++;
      }
      channels[c].recycle(current.buffer());
      current = null;
    }
    return MORE;
  }

  private void handle(int c, StreamElement e) {
    if (e instanceof Record r) {
      task.processRecord(heads[c], r);
    } else if (e instanceof Watermark w) {
      if (w.timestamp() > watermarks[c]) {
        watermarks[c] = w.timestamp();
        recompute();
      }
    } else if (e instanceof IdleStatus s) {
      idle[c] = s.idle();
      recompute();
    } else if (e instanceof Barrier b) {
      // alignment comes with checkpoints; for now a barrier passes on its first arrival
      if (b.checkpointId() > lastBarrier) {
        lastBarrier = b.checkpointId();
        task.processBarrier(b.checkpointId());
      }
    } else if (e instanceof EndOfInput) {
      if (!ended[c]) {
        ended[c] = true;
        endedCount++;
        recompute();
      }
    }
  }

  private void recompute() {
    long min = Long.MAX_VALUE;
    boolean anyActive = false;
    for (int i = 0; i < channels.length; i++) {
      if (!ended[i] && !idle[i]) {
        anyActive = true;
        min = Math.min(min, watermarks[i]);
      }
    }
    if (!anyActive && endedCount < channels.length) {
      task.setIdle(true);
      return;
    }
    if (min > combined) {
      combined = min;
      task.advanceWatermark(min);
    } else if (anyActive) {
      task.setIdle(false);
    }
  }

  @Override
  public long maxWaitNanos() {
    return Long.MAX_VALUE;
  }

  @Override
  public void close() {
    if (current != null) {
      channels[current.channel()].recycle(current.buffer());
      current = null;
    }
  }
}
