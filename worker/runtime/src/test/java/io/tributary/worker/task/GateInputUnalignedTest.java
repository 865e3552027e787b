package io.tributary.worker.task;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.checkpoint.CheckpointAcks;
import io.tributary.checkpoint.InFlightState;
import io.tributary.checkpoint.OperatorState;
import io.tributary.checkpoint.TaskState;
import io.tributary.plan.TransformPlan;
import io.tributary.state.store.InMemoryObjectStore;
import io.tributary.stream.Barrier;
import io.tributary.stream.EndOfInput;
import io.tributary.stream.Record;
import io.tributary.stream.Schema;
import io.tributary.worker.exchange.ElementWriter;
import io.tributary.worker.exchange.InProcessChannel;
import io.tributary.worker.exchange.InputGate;
import io.tributary.worker.operator.Operator;
import io.tributary.worker.operator.Output;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Unaligned barriers at a task's input gate: the first barrier of a checkpoint makes the task
 * snapshot at once, nothing is held, and the records before the barrier on each channel that the
 * snapshot missed are logged into the checkpoint. Driven one {@link GateInput#step()} at a time on
 * the test thread, with small buffers and little credit so that records wait in the senders.
 */
class GateInputUnalignedTest {
  private static final Schema SCHEMA = Schema.of("ch", "n");
  private static final int A = 0;
  private static final int B = 1;

  @Test
  void aPriorityBarrierOvertakesWaitingBuffersAndTheRecordsBeforeItAreLogged() {
    Gate g = new Gate(2, 1, Checkpointing.NO_TIMEOUT);
    g.records(A, 0, 20).priorityBarrier(A, 1).records(A, 20, 25).flush(A);
    g.records(B, 0, 5).flush(B);
    g.run();
    assertThat(g.log.get(0)).as("the snapshot comes before every record still in flight").isEqualTo("barrier 1");
    assertThat(g.log.subList(1, g.log.size())).containsExactlyInAnyOrderElementsOf(
        concat(names("A", 0, 25), names("B", 0, 5)));
    assertThat(g.acks).as("B has not delivered barrier 1: its records may still be before it").isEmpty();

    g.records(B, 5, 8).priorityBarrier(B, 1).records(B, 8, 10).flush(B);
    g.run();
    assertThat(g.acks).hasSize(1);
    assertThat(g.inFlight(1, "A")).containsExactlyElementsOf(names("A", 0, 20));
    assertThat(g.inFlight(1, "B")).containsExactlyElementsOf(names("B", 0, 8));
    assertThat(g.inFlightRecords(1)).isEqualTo(28);
  }

  @Test
  void theLogCompletesWhenTheBuffersBeforeTheBarrierArrivedNotWhenTheyAreProcessed() {
    Gate g = new Gate(2, 1, Checkpointing.NO_TIMEOUT);
    g.records(A, 0, 20).priorityBarrier(A, 1).records(A, 20, 22).flush(A);
    g.priorityBarrier(B, 1);
    // the task is backpressured: it reads no input, it only takes the barriers that overtook it
    for (int i = 0; i < 100 && g.acks.isEmpty(); i++) {
      g.input.pollPriority();
      for (ElementWriter w : g.writers) {
        w.drain(); // the logged buffers' credits came back at once
      }
    }
    assertThat(g.acks).hasSize(1);
    assertThat(g.log).containsExactly("barrier 1");
    assertThat(g.inFlight(1)).containsExactlyElementsOf(names("A", 0, 20));

    g.run();
    assertThat(g.log).containsExactlyElementsOf(concat(List.of("barrier 1"), names("A", 0, 22)));
    assertThat(g.channels[A].availableCredits()).as("each buffer returned its credit once").isEqualTo(1);
  }

  @Test
  void recordsProcessedBeforeTheBarrierArrivedAreInTheSnapshotNotInTheLog() {
    Gate g = new Gate(2, 1000, Checkpointing.NO_TIMEOUT);
    g.records(A, 0, 4).flush(A);
    g.run();
    g.records(A, 4, 8).priorityBarrier(A, 1).flush(A).priorityBarrier(B, 1).flush(B);
    g.run();
    assertThat(g.log).containsExactlyElementsOf(concat(names("A", 0, 4), List.of("barrier 1"), names("A", 4, 8)));
    assertThat(g.inFlight(1)).containsExactlyElementsOf(names("A", 4, 8));
  }

  @Test
  void aCheckpointWithNothingInFlightNamesNoLog() {
    Gate g = new Gate(2, 1000, Checkpointing.NO_TIMEOUT);
    g.priorityBarrier(A, 1).priorityBarrier(B, 1).records(A, 0, 3).flush(A);
    g.run();
    assertThat(g.acks).hasSize(1);
    assertThat(g.inFlight(1)).isEmpty();
    assertThat(g.acks.get(0).operators().get("head").inFlight()).isNull();
  }

  @Test
  void anInBandBarrierEndsItsChannelsLogAtTheBarrier() {
    // a sender that aligned the checkpoint sends its barrier in-band
    Gate g = new Gate(2, 1000, Checkpointing.NO_TIMEOUT);
    g.records(A, 0, 3).priorityBarrier(A, 1).flush(A);
    g.records(B, 0, 3).barrier(B, 1).records(B, 3, 6).flush(B);
    g.run();
    assertThat(g.inFlight(1)).containsExactlyInAnyOrderElementsOf(concat(names("A", 0, 3), names("B", 0, 3)));
    assertThat(g.inFlight(1, "B")).containsExactlyElementsOf(names("B", 0, 3));
  }

  @Test
  void aChannelThatEndsHasDeliveredEverythingBeforeTheBarrier() {
    Gate g = new Gate(2, 1000, Checkpointing.NO_TIMEOUT);
    g.records(A, 0, 2).priorityBarrier(A, 1).flush(A);
    g.records(B, 0, 3).flush(B);
    g.run();
    assertThat(g.acks).isEmpty();
    g.records(B, 3, 4).end(B).flush(B);
    g.run();
    assertThat(g.inFlight(1)).containsExactlyInAnyOrderElementsOf(concat(names("A", 0, 2), names("B", 0, 4)));
    assertThat(g.inFlight(1, "B")).containsExactlyElementsOf(names("B", 0, 4));
  }

  @Test
  void aNewerCheckpointGivesUpTheOneStillLogging() {
    Gate g = new Gate(2, 1000, Checkpointing.NO_TIMEOUT);
    g.records(A, 0, 2).priorityBarrier(A, 1).records(A, 2, 4).priorityBarrier(A, 2).flush(A);
    g.records(B, 0, 2).flush(B);
    g.run();
    g.priorityBarrier(B, 2).flush(B);
    g.run();
    assertThat(g.declined).containsExactly(1L);
    assertThat(g.acks).extracting(TaskState::lastCheckpoint).containsExactly(2L);
    assertThat(g.barriers()).containsExactly(1L, 2L);
    assertThat(g.inFlight(2)).as("what came after snapshot 2 and before barrier 2 on each channel")
        .containsExactlyInAnyOrderElementsOf(concat(names("A", 0, 4), names("B", 0, 2)));
  }

  @Test
  void anAlignmentThatTimesOutTurnsUnalignedAndLogsOnlyChannelsWithoutTheirBarrier() {
    Gate g = new Gate(2, 1000, 10);
    g.records(A, 0, 3).barrier(A, 1).records(A, 3, 6).flush(A);
    g.records(B, 0, 2).flush(B);
    g.run();
    assertThat(g.log).as("aligning: A's records after the barrier are held")
        .containsExactlyInAnyOrderElementsOf(concat(names("A", 0, 3), names("B", 0, 2)));
    assertThat(g.input.maxWaitNanos()).as("the task wakes when the alignment times out").isBetween(1L, 11L);

    g.now += 11;
    g.run();
    assertThat(g.barriers()).containsExactly(1L);
    assertThat(g.log.subList(g.log.indexOf("barrier 1") + 1, g.log.size()))
        .as("A's held records are after the barrier: processed, not logged").containsExactlyElementsOf(names("A", 3, 6));
    assertThat(g.priority).as("the barrier goes on with priority").containsExactly(1L);

    g.records(B, 2, 5).barrier(B, 1).records(B, 5, 7).flush(B);
    g.run();
    assertThat(g.inFlight(1)).containsExactlyElementsOf(names("B", 2, 5));
    assertThat(g.acks.get(0).alignmentNanos()).isEqualTo(11);
  }

  @Test
  void anAlignmentThatCompletesInTimeStaysAligned() {
    Gate g = new Gate(2, 1000, 10);
    g.records(A, 0, 3).barrier(A, 1).records(A, 3, 6).flush(A);
    g.records(B, 0, 2).barrier(B, 1).flush(B);
    g.now += 5;
    g.run();
    assertThat(g.log).containsExactlyElementsOf(concat(names("A", 0, 3), names("B", 0, 2), List.of("barrier 1"),
        names("A", 3, 6)));
    assertThat(g.priority).isEmpty();
    assertThat(g.acks.get(0).operators().get("head").inFlight()).isNull();
  }

  @Test
  void anAlignmentTimesOutBetweenTwoElementsNotOnlyWhenAStepStarts() {
    // a slow operator: the clock advances by one per element processed, so one step of the task's
    // input (up to thousands of elements) outlasts the alignment timeout many times over
    Gate g = new Gate(2, 1000, 10);
    g.input.clock(() -> g.now + g.log.size());
    g.barrier(A, 1).records(A, 0, 3).flush(A);
    g.records(B, 0, 100).barrier(B, 1).records(B, 100, 102).flush(B);
    g.run();
    assertThat(g.priority).as("the checkpoint turned unaligned when its alignment timed out").containsExactly(1L);
    assertThat(g.log.subList(0, g.log.indexOf("barrier 1")))
        .as("the snapshot is taken after the records processed within the timeout").isEqualTo(names("B", 0, 11));
    assertThat(g.inFlight(1)).containsExactlyElementsOf(names("B", 11, 100));
    assertThat(g.acks.get(0).alignmentNanos()).isEqualTo(11);
  }

  /**
   * A backpressured task reads no input: its alignment still times out, and the barrier goes on with
   * priority ahead of the output that waits for credit. Runs the task on its own thread with the
   * real clock.
   */
  @Test
  void anAlignmentTimesOutWhileTheTaskWaitsForCredit() throws Exception {
    long timeout = java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(20);
    InputGate gate = new InputGate(2);
    InProcessChannel[] channels = new InProcessChannel[2];
    ElementWriter[] writers = new ElementWriter[2];
    List<String> log = java.util.Collections.synchronizedList(new ArrayList<>());
    ChainNode head = new ChainNode(new TransformPlan("head", null, null, null), new Forwarding(log));
    for (int c = 0; c < 2; c++) {
      channels[c] = new InProcessChannel(gate, c, 1000, 48);
      writers[c] = new ElementWriter(channels[c]);
    }
    // downstream grants one credit and never returns it: the task is backpressured after one buffer
    InputGate downstream = new InputGate(1);
    InProcessChannel out = new InProcessChannel(downstream, 0, 1, 48);
    java.util.concurrent.CompletableFuture<Long> forwarded = new java.util.concurrent.CompletableFuture<>();
    downstream.onArrival(() -> {
      InputGate.PriorityBarrier p = downstream.pollPriority();
      if (p != null) {
        forwarded.complete(p.checkpointId());
      }
    });
    ExchangeOutput exchange = new ExchangeOutput(new io.tributary.plan.EdgePlan(0, "head", null, 1, "next",
        io.tributary.plan.EdgePlan.Partitioning.FORWARD, List.of()), List.of(new ElementWriter(out)), 128, 0, null);
    head.exchanges.add(exchange);
    GateInput input = new GateInput(gate, channels.clone(), new ChainNode[] {head, head}, new int[2], new boolean[2],
        true, new GateInput.Unaligned(timeout, new io.tributary.stream.KeySelector[2], 128), 0);
    java.util.concurrent.CompletableFuture<Throwable> ended = new java.util.concurrent.CompletableFuture<>();
    StreamTask task = new StreamTask("backpressured", input, List.of(head), List.of(head), List.of(exchange),
        List.of(), new StreamTask.TaskListener() {
          @Override
          public void finished(StreamTask t) {
            ended.complete(null);
          }

          @Override
          public void failed(StreamTask t, Throwable error) {
            ended.complete(error);
          }
        });
    List<Long> acked = new java.util.concurrent.CopyOnWriteArrayList<>();
    CheckpointAcks acks = new CheckpointAcks() {
      @Override
      public void acknowledge(long checkpointId, TaskState state) {
        acked.add(checkpointId);
      }

      @Override
      public void decline(long checkpointId, String t, Throwable reason) {}

      @Override
      public void finished(TaskState state) {}
    };
    task.checkpointer(new TaskCheckpointer(new Checkpointing(acks, new InMemoryObjectStore(), Runnable::run, 1, true,
        true, timeout), "job", 1, 0, 1));
    // A delivers barrier 1 (the alignment starts), B many records that fill the output, and no barrier yet
    writers[A].write(new Barrier(1));
    writers[A].flush();
    for (int i = 0; i < 50; i++) {
      writers[B].write(new Record(SCHEMA, new Object[] {"B", (long) i}, Record.NO_TIMESTAMP));
    }
    writers[B].flush();
    Thread thread = new Thread(task, "backpressured-task");
    thread.setDaemon(true);
    thread.start();
    try {
      assertThat(forwarded.get(30, java.util.concurrent.TimeUnit.SECONDS))
          .as("barrier 1 went on with priority though the task waits for credit").isEqualTo(1L);
      assertThat(log).as("the task is backpressured: it took few of B's records").hasSizeLessThan(50);
      assertThat(log).contains("barrier 1");
      assertThat(out.availableCredits()).isZero();
    } finally {
      task.cancel();
      thread.join(30_000);
    }
    assertThat(ended.get(30, java.util.concurrent.TimeUnit.SECONDS))
        .isInstanceOf(java.util.concurrent.CancellationException.class);
  }

  @Test
  void aPriorityBarrierDuringAnAlignmentTurnsItUnaligned() {
    Gate g = new Gate(2, 1000, 1_000_000);
    g.records(A, 0, 3).barrier(A, 1).records(A, 3, 6).flush(A);
    g.records(B, 0, 2).flush(B);
    g.run();
    g.records(B, 2, 4).priorityBarrier(B, 1).flush(B);
    g.run();
    assertThat(g.inFlight(1)).containsExactlyElementsOf(names("B", 2, 4));
  }

  /**
   * Random interleavings of two or three channels with little credit, several checkpoints, barriers
   * of one checkpoint sent far apart, with priority or (half the rounds) under an alignment timeout
   * that the clock passes now and then, in-band from senders that aligned and with priority from
   * those that turned unaligned, both in one checkpoint: for every acknowledged checkpoint, what was processed before
   * its snapshot and what it logged are disjoint and together exactly the records sent before its
   * barrier on each channel; every record is processed once, in its channel's order; each buffer
   * returns its credit once.
   */
  @Test
  void randomInterleavingsLogExactlyWhatTheSnapshotMissed() {
    long seed = System.nanoTime();
    java.util.Random random = new java.util.Random(seed);
    int acked = 0;
    int loggedRecords = 0;
    int switched = 0;
    for (int round = 0; round < 300; round++) {
      String why = "seed " + seed + ", round " + round;
      int n = 2 + random.nextInt(2);
      int credits = 1 + random.nextInt(3);
      boolean timeout = random.nextBoolean();
      Gate g = new Gate(n, credits, timeout ? 10 : Checkpointing.NO_TIMEOUT);
      int checkpoints = 1 + random.nextInt(4);
      List<List<Object>> scripts = new ArrayList<>();
      java.util.Map<Long, java.util.Set<String>> before = new java.util.HashMap<>();
      for (int c = 0; c < n; c++) {
        List<Object> script = new ArrayList<>();
        int next = 0;
        for (long id = 1; id <= checkpoints + 1; id++) {
          for (int i = random.nextInt(30); i > 0; i--) {
            for (long later = id; later <= checkpoints; later++) {
              before.computeIfAbsent(later, k -> new java.util.HashSet<>()).add(channelName(c) + next);
            }
            script.add(next++);
          }
          if (id <= checkpoints) {
            script.add(id);
          }
        }
        script.add("end");
        scripts.add(script);
      }
      int[] at = new int[n];
      int remaining = scripts.stream().mapToInt(List::size).sum();
      while (remaining > 0) {
        int c = random.nextInt(n);
        if (at[c] < scripts.get(c).size()) {
          Object e = scripts.get(c).get(at[c]++);
          remaining--;
          if (e instanceof Integer i) {
            g.records(c, i, i + 1);
          } else if (e instanceof Long id && timeout && random.nextInt(3) > 0) {
            g.barrier(c, id); // under a timeout most senders aligned; the others turned unaligned
          } else if (e instanceof Long id) {
            g.priorityBarrier(c, id);
          } else {
            g.end(c);
          }
        }
        if (random.nextInt(4) == 0) {
          g.flush(c);
        }
        if (random.nextInt(3) == 0) {
          g.now += random.nextInt(4) == 0 ? 11 : 0;
          g.run();
        }
      }
      for (int c = 0; c < n; c++) {
        g.flush(c);
      }
      g.run();

      List<String> records = g.log.stream().filter(e -> !e.startsWith("barrier")).toList();
      assertThat(records).as(why).doesNotHaveDuplicates().hasSize(scripts.stream()
          .mapToInt(sc -> (int) sc.stream().filter(e -> e instanceof Integer).count()).sum());
      for (int c = 0; c < n; c++) {
        String ch = channelName(c);
        List<Integer> order = records.stream().filter(r -> r.startsWith(ch)).map(r -> Integer.parseInt(r.substring(1)))
            .toList();
        assertThat(order).as("%s: order of channel %s", why, ch).isSorted();
        assertThat(g.channels[c].availableCredits()).as("%s: credits of %s", why, ch).isEqualTo(credits);
      }
      assertThat(g.acks.size() + g.declined.size()).as(why).isEqualTo(g.barriers().size());
      for (TaskState ack : g.acks) {
        long id = ack.lastCheckpoint();
        List<String> snapshot = g.log.subList(0, g.log.indexOf("barrier " + id)).stream()
            .filter(e -> !e.startsWith("barrier")).toList();
        List<String> logged = g.inFlight(id);
        assertThat(logged).as("%s: checkpoint %d logs nothing twice", why, id).doesNotHaveDuplicates();
        assertThat(java.util.Collections.disjoint(logged, snapshot))
            .as("%s: checkpoint %d logs nothing its snapshot has: %s", why, id, logged).isTrue();
        List<String> both = new ArrayList<>(snapshot);
        both.addAll(logged);
        assertThat(both).as("%s: checkpoint %d", why, id)
            .containsExactlyInAnyOrderElementsOf(before.getOrDefault(id, java.util.Set.of()));
        acked++;
        loggedRecords += logged.size();
        switched += timeout && !logged.isEmpty() ? 1 : 0;
      }
    }
    assertThat(acked).as("seed %d: checkpoints acknowledged", seed).isGreaterThan(300);
    assertThat(loggedRecords).as("seed %d: records logged", seed).isGreaterThan(1000);
    assertThat(switched).as("seed %d: alignments that timed out and logged records", seed).isGreaterThan(10);
  }

  // ---- fixture ----

  /** A gate of in-process channels feeding one recording head, in a task that checkpoints unaligned. */
  private static final class Gate {
    final List<String> log = new ArrayList<>();
    final List<TaskState> acks = new ArrayList<>();
    final List<Long> declined = new ArrayList<>();
    final List<Long> priority = new ArrayList<>();
    final InMemoryObjectStore store = new InMemoryObjectStore();
    final InProcessChannel[] channels;
    final ElementWriter[] writers;
    final GateInput input;
    final StreamTask task;
    long now;

    Gate(int n, int credits, long timeoutNanos) {
      InputGate gate = new InputGate(n);
      channels = new InProcessChannel[n];
      writers = new ElementWriter[n];
      ChainNode head = new ChainNode(new TransformPlan("head", null, null, null), new Recording(log));
      ChainNode[] heads = new ChainNode[n];
      for (int c = 0; c < n; c++) {
        channels[c] = new InProcessChannel(gate, c, credits, 48);
        writers[c] = new ElementWriter(channels[c]);
        heads[c] = head;
      }
      // what the task sends on: one channel to a gate of its own, whose priority lane the test reads
      InputGate downstream = new InputGate(1);
      InProcessChannel out = new InProcessChannel(downstream, 0, 1000, 48);
      ExchangeOutput exchange = new ExchangeOutput(new io.tributary.plan.EdgePlan(0, "head", null, 1, "next",
          io.tributary.plan.EdgePlan.Partitioning.FORWARD, List.of()), List.of(new ElementWriter(out)), 128, 0, null);
      downstream.onArrival(() -> {
        InputGate.PriorityBarrier p;
        while ((p = downstream.pollPriority()) != null) {
          priority.add(p.checkpointId());
        }
      });
      input = new GateInput(gate, channels.clone(), heads, new int[n], new boolean[n], true,
          new GateInput.Unaligned(timeoutNanos, new io.tributary.stream.KeySelector[n], 128), 0);
      input.clock(() -> now);
      task = new StreamTask("unaligned", input, List.of(head), List.of(head), List.of(exchange), List.of(),
          new StreamTask.TaskListener() {
            @Override
            public void finished(StreamTask t) {}

            @Override
            public void failed(StreamTask t, Throwable error) {}
          });
      CheckpointAcks collect = new CheckpointAcks() {
        @Override
        public void acknowledge(long checkpointId, TaskState state) {
          acks.add(state);
        }

        @Override
        public void decline(long checkpointId, String t, Throwable reason) {
          declined.add(checkpointId);
        }

        @Override
        public void finished(TaskState state) {}
      };
      task.checkpointer(new TaskCheckpointer(new Checkpointing(collect, store, Runnable::run, 1, true, true,
          timeoutNanos), "job", 1, 0, 1));
      input.open(task);
    }

    Gate records(int channel, int from, int to) {
      for (int i = from; i < to; i++) {
        writers[channel].write(new Record(SCHEMA, new Object[] {channelName(channel), (long) i}, Record.NO_TIMESTAMP));
      }
      return this;
    }

    Gate barrier(int channel, long id) {
      writers[channel].write(new Barrier(id));
      return this;
    }

    Gate priorityBarrier(int channel, long id) {
      writers[channel].writePriorityBarrier(id);
      return this;
    }

    Gate end(int channel) {
      writers[channel].write(EndOfInput.INSTANCE);
      return this;
    }

    Gate flush(int channel) {
      writers[channel].flush();
      return this;
    }

    /** Steps the input and lets the senders use returned credit until nothing moves. */
    void run() {
      for (int i = 0; i < 100_000; i++) {
        int r = input.step();
        if (r == TaskInput.END) {
          return;
        }
        if (r == TaskInput.NOTHING) {
          boolean canSend = false;
          for (int c = 0; c < writers.length; c++) {
            canSend |= !writers[c].isAvailable() && channels[c].availableCredits() > 0;
            writers[c].drain();
          }
          if (!canSend) {
            return;
          }
        }
      }
      throw new AssertionError("the input never ran out of work");
    }

    List<Long> barriers() {
      return log.stream().filter(s -> s.startsWith("barrier ")).map(s -> Long.parseLong(s.substring(8))).toList();
    }

    /** The records checkpoint {@code id} logged, as names, in log order. */
    List<String> inFlight(long id) {
      TaskState state = acks.stream().filter(s -> s.lastCheckpoint() == id).findFirst().orElseThrow(
          () -> new AssertionError("checkpoint " + id + " was not acknowledged: " + acks + ", declined " + declined));
      InFlightState f = state.operators().get("head").inFlight();
      List<String> out = new ArrayList<>();
      if (f == null) {
        return out;
      }
      try {
        InFlightLog.read(f.object(), store.getBytes(f.object()),
            e -> out.add(e.record().get("ch") + String.valueOf(e.record().get("n"))));
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
      return out;
    }

    /** The records checkpoint {@code id} logged of channel {@code channel}, in log order. */
    List<String> inFlight(long id, String channel) {
      return inFlight(id).stream().filter(n -> n.startsWith(channel)).toList();
    }

    long inFlightRecords(long id) {
      TaskState state = acks.stream().filter(s -> s.lastCheckpoint() == id).findFirst().orElseThrow();
      OperatorState head = state.operators().get("head");
      return head.inFlight() == null ? 0 : head.inFlight().records();
    }
  }

  /** Logs records as {@code A3} and snapshots as {@code barrier 1}, and forwards the records. */
  private record Forwarding(List<String> log) implements Operator {
    @Override
    public void processElement(Record record, Output out) {
      log.add(record.get("ch") + String.valueOf(record.get("n")));
      out.emit(record);
    }

    @Override
    public void onBarrier(long checkpointId) {
      log.add("barrier " + checkpointId);
    }
  }

  /** Logs records as {@code A3} and snapshots as {@code barrier 1}. */
  private record Recording(List<String> log) implements Operator {
    @Override
    public void processElement(Record record, Output out) {
      log.add(record.get("ch") + String.valueOf(record.get("n")));
    }

    @Override
    public void onBarrier(long checkpointId) {
      log.add("barrier " + checkpointId);
    }
  }

  private static String channelName(int c) {
    return String.valueOf((char) ('A' + c));
  }

  private static List<String> names(String channel, int from, int to) {
    List<String> out = new ArrayList<>();
    for (int i = from; i < to; i++) {
      out.add(channel + i);
    }
    return out;
  }

  @SafeVarargs
  private static List<String> concat(List<String>... parts) {
    List<String> out = new ArrayList<>();
    for (List<String> p : parts) {
      out.addAll(p);
    }
    return out;
  }
}
