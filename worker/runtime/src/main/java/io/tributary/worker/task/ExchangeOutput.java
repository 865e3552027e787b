package io.tributary.worker.task;

import io.tributary.plan.EdgePlan;
import io.tributary.state.KeyGroups;
import io.tributary.stream.KeySelector;
import io.tributary.stream.Record;
import io.tributary.stream.StreamElement;
import io.tributary.worker.exchange.ElementWriter;
import io.tributary.worker.exchange.Projection;
import java.util.List;

/**
 * One outgoing exchange of a task: routes records to the receiving subtasks (by key group, round
 * robin or one to one) and broadcasts everything else.
 */
final class ExchangeOutput {
  private final EdgePlan.Partitioning partitioning;
  private final ElementWriter[] writers;
  private final KeySelector keySelector;
  private final int maxParallelism;
  private final int subtaskIndex;
  private final Projection projection;
  private int nextRoundRobin;
  private long lastWatermark = Long.MIN_VALUE;

  /** @param projection the fields the receiver reads, or null for all */
  ExchangeOutput(EdgePlan edge, List<ElementWriter> writers, int maxParallelism, int subtaskIndex,
      Projection projection) {
    this.projection = projection;
    // with one receiver, which owns every key group, a hash exchange routes as a forward one: no key taken
    this.partitioning = writers.size() == 1 ? EdgePlan.Partitioning.FORWARD : edge.partitioning();
    this.writers = writers.toArray(new ElementWriter[0]);
    this.keySelector = new KeySelector(edge.keyFields());
    this.maxParallelism = maxParallelism;
    this.subtaskIndex = subtaskIndex;
    this.nextRoundRobin = subtaskIndex % this.writers.length;
  }

  /** The fields the receiver reads, null for all (tests). */
  Projection projection() {
    return projection;
  }

  void writeRecord(Record record) {
    writers[target(record)].write(record, projection);
  }

  private int target(Record record) {
    switch (partitioning) {
      case HASH: {
        int keyGroup = keySelector.keyOf(record).keyGroup(maxParallelism);
        return KeyGroups.subtaskFor(keyGroup, maxParallelism, writers.length);
      }
      case REBALANCE: {
        int t = nextRoundRobin;
        nextRoundRobin = (t + 1) % writers.length;
        return t;
      }
      default:
        return subtaskIndex % writers.length;
    }
  }

  /** Broadcasts a watermark if it advances what this exchange sent before. */
  void writeWatermark(long watermark, StreamElement element) {
    if (watermark > lastWatermark) {
      lastWatermark = watermark;
      broadcast(element);
    }
  }

  void broadcast(StreamElement element) {
    for (ElementWriter w : writers) {
      w.write(element);
    }
  }

  /** Sends barrier {@code checkpointId} on every channel ahead of what waits for credit (unaligned checkpoints). */
  void broadcastPriorityBarrier(long checkpointId) {
    for (ElementWriter w : writers) {
      w.writePriorityBarrier(checkpointId);
    }
  }

  /** Wakes the sending task when a receiver returns credit. */
  void onCredit(Runnable wakeup) {
    for (ElementWriter w : writers) {
      w.onCredit(wakeup);
    }
  }

  boolean isAvailable() {
    for (ElementWriter w : writers) {
      if (!w.isAvailable()) {
        return false;
      }
    }
    return true;
  }

  /** Sends what waits for credit; true when nothing waits any more. */
  boolean drain() {
    boolean all = true;
    for (ElementWriter w : writers) {
      all &= w.drain();
    }
    return all;
  }

  void flush() {
    for (ElementWriter w : writers) {
      w.flush();
    }
  }
}
