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
 *
 * <p>Checkpoint barriers are aligned (see {@link #onBarrier}): input that follows barrier n on a
 * channel is held until barrier n arrived on every channel, so the snapshot covers exactly the
 * input before the barrier. Held buffers keep their credit, which backpressures that sender.
 */
final class GateInput implements TaskInput {
  private static final int MAX_ELEMENTS_PER_STEP = 4096;

  private final InputGate gate;
  private final InboundChannel[] channels;
  private final ChainNode[] heads;
  /** Per channel: which input of its head it feeds (a join's left or right, a union's n-th). */
  private final int[] inputs;
  private final ElementReader[] readers;
  private final long[] watermarks;
  private final boolean[] idle;
  private final boolean[] ended;
  private int endedCount;
  private long combined = Watermark.NONE;
  private long lastBarrier = Long.MIN_VALUE;
  private InputGate.Arrival current;
  private StreamTask task;
  // ---- barrier alignment ----
  /** Per channel: arrivals held back (the channel delivered the barrier being aligned, or has older held arrivals). */
  private final java.util.ArrayDeque<InputGate.Arrival>[] held;
  /** Per channel: a partly read arrival whose reader position must be kept. */
  private final InputGate.Arrival[] partlyRead;
  /** Per channel: it delivered the barrier being aligned (its input is held when {@link #aligned}). */
  private final boolean[] blocked;
  private final boolean aligned;
  private int channelsWithBacklog;
  private long aligning = -1;
  private long alignmentStartNanos;

  /**
   * @param channels the inbound channels by gate channel index
   * @param heads the chain head each channel feeds, by gate channel index
   * @param endedFromStart channels known to carry nothing (a source subtask without splits): they
   *     never hold back the watermark
   */
  GateInput(InputGate gate, InboundChannel[] channels, ChainNode[] heads, boolean[] endedFromStart) {
    this(gate, channels, heads, new int[channels.length], endedFromStart, true);
  }

  /**
   * @param inputs per channel, the input of its head it feeds (0 unless the head has several)
   * @param aligned whether to hold a channel's input after its barrier until the barrier came on every channel
   */
  GateInput(InputGate gate, InboundChannel[] channels, ChainNode[] heads, int[] inputs, boolean[] endedFromStart,
      boolean aligned) {
    this.aligned = aligned;
    this.gate = gate;
    this.channels = channels;
    this.heads = heads;
    this.inputs = inputs.clone();
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
    @SuppressWarnings("unchecked")
    java.util.ArrayDeque<InputGate.Arrival>[] queues = new java.util.ArrayDeque[n];
    for (int i = 0; i < n; i++) {
      queues[i] = new java.util.ArrayDeque<>();
    }
    this.held = queues;
    this.partlyRead = new InputGate.Arrival[n];
    this.blocked = new boolean[n];
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
        current = nextArrival();
        if (current == null) {
          if (processed > 0) {
            return MORE;
          }
          return endedCount == channels.length ? END : NOTHING;
        }
      }
      int c = current.channel();
      ElementReader reader = readers[c];
      while (reader.hasNext()) {
        if (!task.canTakeInput()) {
          return MORE;
        }
        handle(c, reader.next());
        processed++;
        if (aligned && blocked[c]) {
          // the channel delivered the barrier being aligned: keep the rest of this buffer for later
          if (reader.hasNext()) {
            partlyRead[c] = current;
            backlogAdded(c);
          } else {
            channels[c].recycle(current.buffer());
          }
          current = null;
          break;
        }
      }
      if (current != null) {
        channels[c].recycle(current.buffer());
        current = null;
      }
    }
    return MORE;
  }

  /**
   * The next arrival to read: held arrivals of channels no longer blocked first (in channel order),
   * then new arrivals; new arrivals of a blocked channel, or of one with older held arrivals, are
   * held so each channel's order is kept.
   */
  private InputGate.Arrival nextArrival() {
    if (channelsWithBacklog > 0) {
      for (int c = 0; c < channels.length; c++) {
        if (blocked[c]) {
          continue;
        }
        if (partlyRead[c] != null) {
          InputGate.Arrival a = partlyRead[c];
          partlyRead[c] = null;
          backlogRemoved(c);
          return a; // the reader still points into it
        }
        InputGate.Arrival a = held[c].poll();
        if (a != null) {
          backlogRemoved(c);
          if (a.buffer() == null) {
            brokenChannel(a);
            continue;
          }
          readers[c].reset(a.buffer());
          return a;
        }
      }
    }
    InputGate.Arrival a;
    while ((a = gate.poll()) != null) {
      int c = a.channel();
      if (aligned && (blocked[c] || hasBacklog(c))) {
        boolean had = hasBacklog(c);
        held[c].add(a);
        if (!had) {
          channelsWithBacklog++;
        }
        continue;
      }
      if (a.buffer() == null) {
        brokenChannel(a);
        continue;
      }
      readers[c].reset(a.buffer());
      return a;
    }
    return null;
  }

  /** A channel broke: the task fails, unless the channel had delivered its end of input. */
  private void brokenChannel(InputGate.Arrival a) {
    if (!ended[a.channel()]) {
      throw a.failure();
    }
  }

  private boolean hasBacklog(int c) {
    return partlyRead[c] != null || !held[c].isEmpty();
  }

  /** Call after adding to channel {@code c}'s backlog. */
  private void backlogAdded(int c) {
    int size = held[c].size() + (partlyRead[c] != null ? 1 : 0);
    if (size == 1) {
      channelsWithBacklog++;
    }
  }

  /** Call after taking from channel {@code c}'s backlog. */
  private void backlogRemoved(int c) {
    if (!hasBacklog(c)) {
      channelsWithBacklog--;
    }
  }

  private void handle(int c, StreamElement e) {
    if (e instanceof Record r) {
      task.processRecord(heads[c], inputs[c], r);
    } else if (e instanceof Watermark w) {
      if (w.timestamp() > watermarks[c]) {
        watermarks[c] = w.timestamp();
        recompute();
      }
    } else if (e instanceof IdleStatus s) {
      idle[c] = s.idle();
      recompute();
    } else if (e instanceof Barrier b) {
      onBarrier(c, b.checkpointId());
    } else if (e instanceof EndOfInput) {
      if (!ended[c]) {
        ended[c] = true;
        endedCount++;
        recompute();
        if (aligning >= 0) {
          checkAligned(); // an ended channel has sent everything the checkpoint covers
        }
      }
    }
  }

  /**
   * Aligned checkpoints: the first barrier of checkpoint n blocks its channel; each channel that
   * delivers barrier n is blocked in turn; when every channel that has not ended is blocked, the
   * task takes its snapshot, forwards the barrier, and reads the held input.
   */
  private void onBarrier(int c, long checkpointId) {
    if (checkpointId <= lastBarrier) {
      return; // an older checkpoint, given up
    }
    if (checkpointId > aligning) {
      if (aligning >= 0) {
        unblockAll(); // a newer checkpoint started: the one being aligned cannot complete here
      }
      aligning = checkpointId;
      alignmentStartNanos = System.nanoTime();
    } else if (checkpointId < aligning) {
      return;
    }
    blocked[c] = true;
    checkAligned();
  }

  private void checkAligned() {
    for (int i = 0; i < channels.length; i++) {
      if (!blocked[i] && !ended[i]) {
        return;
      }
    }
    long id = aligning;
    lastBarrier = id;
    aligning = -1;
    task.alignmentNanos(System.nanoTime() - alignmentStartNanos);
    unblockAll();
    task.processBarrier(id);
  }

  private void unblockAll() {
    java.util.Arrays.fill(blocked, false);
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
    for (int c = 0; c < channels.length; c++) {
      if (partlyRead[c] != null) {
        channels[c].recycle(partlyRead[c].buffer());
        partlyRead[c] = null;
      }
      InputGate.Arrival a;
      while ((a = held[c].poll()) != null) {
        channels[c].recycle(a.buffer());
      }
    }
  }
}
