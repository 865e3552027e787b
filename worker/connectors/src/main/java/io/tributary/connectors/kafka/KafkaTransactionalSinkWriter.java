package io.tributary.connectors.kafka;

import io.tributary.connect.ConnectorException;
import io.tributary.connect.SinkWriter;
import io.tributary.connectors.json.JsonRecords;
import io.tributary.stream.Record;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * One subtask's exactly-once writer of a {@link KafkaSink}. Records go into a Kafka transaction;
 * {@link #preCommit} flushes it and parks it, still open, until {@link KafkaSink#commit} commits it:
 * through this writer's producer while the writer's sink object lives, or, after a crash, through a
 * producer another process creates from the committable (see {@link KafkaTransactions}). Later
 * records go into a transaction of another producer of a small pool, whose transactional ids are
 * {@code <idBase>-<slot>} with {@code idBase = <prefix>-<subtask>-<attempt>}; a producer returns to
 * the pool when its transaction is committed (or aborted by {@link #abortPending}).
 *
 * <p>Threads: write, preCommit, commit and close on the task thread; {@link #commitThrough} and
 * {@link #abortPending} on any thread.
 */
final class KafkaTransactionalSinkWriter implements SinkWriter {
  /** A pre-committed, still open transaction. */
  private record Pending(TransactionalProducer producer, KafkaCommittable committable) {}

  private final KafkaSink sink;
  private final String sinkId;
  private final String topic;
  private final List<String> keyFields;
  private final Map<String, Object> config;
  private final String idBase;

  // Guarded by this.
  private final Deque<TransactionalProducer> idle = new ArrayDeque<>();
  private final Deque<Pending> pending = new ArrayDeque<>();
  private int slots;
  private boolean closed;

  // Task thread only.
  private TransactionalProducer current;

  KafkaTransactionalSinkWriter(KafkaSink sink, String sinkId, String topic, List<String> keyFields,
      Map<String, Object> config, String idBase) {
    this.sink = sink;
    this.sinkId = sinkId;
    this.topic = topic;
    this.keyFields = keyFields;
    this.config = config;
    this.idBase = idBase;
  }

  @Override
  public void write(Record record) {
    if (current == null) {
      current = acquire();
    }
    byte[] key = keyFields.isEmpty() ? null : JsonRecords.toJsonBytes(record, keyFields);
    current.send(new ProducerRecord<>(topic, key, JsonRecords.toJsonBytes(record)));
  }

  /**
   * Flushes the open transaction and parks it for {@link KafkaSink#commit}; returns the {@link
   * KafkaCommittable} naming it, with producer id, epoch and start time as the coordinator reports
   * them, so that another process can commit it too. When nothing was written since the last
   * pre-commit but earlier pre-commits still wait, returns a committable naming the latest of them
   * (committing it commits all of them); null when nothing waits.
   */
  @Override
  public String preCommit(long checkpointId) {
    if (current == null) {
      synchronized (this) {
        Pending last = pending.peekLast();
        return last == null ? null : last.committable().forCheckpoint(checkpointId).toJson();
      }
    }
    current.flush();
    KafkaCommittable c = sink.describeOpen(current.transactionalId(), checkpointId);
    synchronized (this) {
      pending.addLast(new Pending(current, c));
    }
    current = null;
    return c.toJson();
  }

  /** Commits everything: the parked transactions, then the open one (end of a bounded job). */
  @Override
  public void commit() {
    if (current != null) {
      current.flush();
    }
    synchronized (this) {
      while (!pending.isEmpty()) {
        commitFirstPending();
      }
    }
    if (current != null) {
      current.commitTransaction();
      release(current);
      current = null;
    }
  }

  /**
   * Commits, in order, the parked transactions up to the one {@code c} names (a checkpoint covers
   * every earlier one of this writer).
   *
   * @return false if {@code c} is not parked here (committed or aborted already)
   */
  synchronized boolean commitThrough(KafkaCommittable c) {
    boolean parked = pending.stream().anyMatch(p -> p.committable().sameTransaction(c));
    if (!parked) {
      return false;
    }
    boolean done = false;
    while (!done) {
      done = pending.peekFirst().committable().sameTransaction(c);
      commitFirstPending();
    }
    return true;
  }

  /** Aborts every parked transaction except those {@code keep} names. */
  synchronized void abortPending(List<KafkaCommittable> keep) {
    for (var it = pending.iterator(); it.hasNext(); ) {
      Pending p = it.next();
      if (keep.stream().noneMatch(k -> k.sameTransaction(p.committable()))) {
        it.remove();
        p.producer().abortQuietly();
        release(p.producer());
      }
    }
  }

  /**
   * Aborts the open transaction and closes the idle producers. Parked transactions stay open (and
   * their producers alive) so that {@link KafkaSink#commit} or {@link KafkaSink#recover} can still
   * commit or abort them: through these producers on the same sink object, or through their
   * committables from anywhere else.
   */
  @Override
  public void close() {
    TransactionalProducer open = current;
    current = null;
    if (open != null) {
      open.abortQuietly();
    }
    synchronized (this) {
      closed = true;
      if (open != null) {
        release(open);
      }
      for (TransactionalProducer p : idle) {
        p.close();
        sink.forget(p.transactionalId());
      }
      idle.clear();
    }
  }

  private TransactionalProducer acquire() {
    String id;
    synchronized (this) {
      if (closed) {
        throw new ConnectorException("kafka sink '" + sinkId + "': writer " + idBase + " is closed");
      }
      TransactionalProducer p = idle.pollFirst();
      if (p != null) {
        return p;
      }
      id = idBase + "-" + slots++;
    }
    TransactionalProducer p = new TransactionalProducer(sinkId, topic, id, config);
    sink.register(id, this);
    return p;
  }

  // Holding this.
  private void commitFirstPending() {
    Pending p = pending.peekFirst();
    p.producer().commitTransaction();
    pending.removeFirst();
    release(p.producer());
  }

  private synchronized void release(TransactionalProducer p) {
    if (closed) {
      p.close();
      sink.forget(p.transactionalId());
    } else {
      idle.addFirst(p);
    }
  }
}
