package io.tributary.worker.task;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.stream.Barrier;
import io.tributary.stream.EndOfInput;
import io.tributary.stream.IdleStatus;
import io.tributary.stream.Record;
import io.tributary.stream.Schema;
import io.tributary.stream.Watermark;
import io.tributary.worker.exchange.ElementWriter;
import io.tributary.worker.exchange.InProcessChannel;
import io.tributary.worker.exchange.InboundChannel;
import io.tributary.worker.exchange.InputGate;
import io.tributary.worker.operator.Operator;
import io.tributary.worker.operator.Output;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Aligned barriers at a task's input gate: a channel that delivered barrier n is held back until
 * every open channel delivered it, so the snapshot covers exactly the records before the barrier
 * on each channel. Driven one {@link GateInput#step()} at a time on the test thread, with small
 * buffers so barriers fall in the middle of buffers.
 */
class GateInputAlignmentTest {
  private static final Schema SCHEMA = Schema.of("ch", "n");
  private static final int A = 0;
  private static final int B = 1;

  @Test
  void recordsAfterTheBarrierWaitUntilEveryChannelDeliveredIt() {
    Gate g = new Gate(2, 64, 1000, new boolean[2]);
    g.records(A, 0, 5).barrier(A, 1).records(A, 5, 10).flush(A);
    g.run();
    assertThat(g.log).as("A's records after barrier 1 are held").containsExactlyElementsOf(names("A", 0, 5));

    g.records(B, 0, 5).flush(B);
    g.run();
    assertThat(g.log).as("B has not delivered barrier 1: its records go on")
        .containsExactlyElementsOf(concat(names("A", 0, 5), names("B", 0, 5)));

    g.now += 1_000;
    g.barrier(B, 1).records(B, 5, 10).flush(B);
    g.run();
    assertThat(g.log.subList(0, 11))
        .containsExactlyElementsOf(concat(names("A", 0, 5), names("B", 0, 5), List.of("barrier 1")));
    assertThat(g.log.subList(11, g.log.size())).containsExactlyInAnyOrderElementsOf(
        concat(names("A", 5, 10), names("B", 5, 10)));
    assertPerChannelOrder(g.log);
    assertThat(g.alignmentNanos()).as("the barrier waited for channel B").isEqualTo(1_000);
  }

  @Test
  void heldBuffersKeepTheirCreditUntilTheAlignmentEnds() {
    Gate g = new Gate(2, 64, 1000, new boolean[2]);
    g.barrier(A, 1).records(A, 0, 20).flush(A);
    g.run();
    assertThat(g.log).isEmpty();
    assertThat(g.channels[A].availableCredits()).as("held buffers are not returned").isLessThan(1000 - 3);

    g.barrier(B, 1).flush(B);
    g.run();
    assertThat(g.log).containsExactlyElementsOf(concat(List.of("barrier 1"), names("A", 0, 20)));
    assertThat(g.channels[A].availableCredits()).isEqualTo(1000);
    assertThat(g.channels[B].availableCredits()).isEqualTo(1000);
  }

  @Test
  void aChannelThatEndedDoesNotBlockTheAlignment() {
    Gate g = new Gate(2, 64, 1000, new boolean[2]);
    g.records(B, 0, 3).end(B).flush(B);
    g.records(A, 0, 3).barrier(A, 1).records(A, 3, 6).end(A).flush(A);
    g.run();
    assertThat(g.barriers()).containsExactly(1L);
    assertThat(g.log.subList(g.log.indexOf("barrier 1") + 1, g.log.size()))
        .containsExactlyElementsOf(names("A", 3, 6));
    assertThat(g.log.subList(0, g.log.indexOf("barrier 1")))
        .containsExactlyInAnyOrderElementsOf(concat(names("A", 0, 3), names("B", 0, 3)));
    assertThat(g.ended).as("every channel ended: the input ended").isTrue();
  }

  @Test
  void aChannelEndingWhileTheBarrierWaitsForItReleasesTheBarrier() {
    Gate g = new Gate(2, 64, 1000, new boolean[2]);
    g.records(A, 0, 2).barrier(A, 1).records(A, 2, 4).flush(A);
    g.run();
    assertThat(g.barriers()).isEmpty();

    g.records(B, 0, 2).end(B).flush(B);
    g.run();
    assertThat(g.log).containsExactlyElementsOf(
        concat(names("A", 0, 2), names("B", 0, 2), List.of("barrier 1"), names("A", 2, 4)));
  }

  @Test
  void aChannelWithoutSplitsFromTheStartNeverHoldsTheBarrier() {
    Gate g = new Gate(2, 64, 1000, new boolean[] {false, true});
    g.records(A, 0, 2).barrier(A, 1).records(A, 2, 4).flush(A);
    g.run();
    assertThat(g.log).containsExactlyElementsOf(concat(names("A", 0, 2), List.of("barrier 1"), names("A", 2, 4)));
  }

  /**
   * Random interleavings of two or three channels, buffer sizes and flushes, several checkpoints,
   * barriers of one checkpoint arriving far apart: each snapshot happens once, after every record
   * sent before its barrier on any channel and before every record sent after it; per-channel
   * order is kept.
   */
  @Test
  void randomInterleavingsAlignEveryCheckpoint() {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    for (int round = 0; round < 300; round++) {
      String why = "seed " + seed + ", round " + round;
      int channels = 2 + random.nextInt(2);
      int checkpoints = 1 + random.nextInt(5);
      Gate g = new Gate(channels, 40 + random.nextInt(200), 10_000, new boolean[channels]);
      // per channel: the script of elements to send; epoch of a record = barriers before it
      List<List<Object>> scripts = new ArrayList<>();
      java.util.Map<String, Integer> epochs = new java.util.HashMap<>();
      for (int c = 0; c < channels; c++) {
        List<Object> script = new ArrayList<>();
        int n = 0;
        for (int epoch = 0; epoch <= checkpoints; epoch++) {
          for (int i = random.nextInt(8); i > 0; i--) {
            String name = channelName(c) + n;
            epochs.put(name, epoch);
            script.add(n++);
          }
          if (epoch < checkpoints) {
            script.add("barrier " + (epoch + 1));
          }
        }
        script.add("end");
        scripts.add(script);
      }
      int[] next = new int[channels];
      int remaining = scripts.stream().mapToInt(List::size).sum();
      while (remaining > 0) {
        int c = random.nextInt(channels);
        if (next[c] < scripts.get(c).size()) {
          Object e = scripts.get(c).get(next[c]++);
          remaining--;
          if (e instanceof Integer n) {
            g.records(c, n, n + 1);
          } else if (e.equals("end")) {
            g.end(c);
          } else {
            g.barrier(c, Long.parseLong(((String) e).substring("barrier ".length())));
          }
        }
        if (random.nextInt(4) == 0) {
          g.flush(c);
        }
        if (random.nextInt(3) == 0) {
          g.run();
        }
      }
      for (int c = 0; c < channels; c++) {
        g.flush(c);
      }
      g.run();

      assertThat(g.ended).as(why).isTrue();
      List<Long> expectedBarriers = new ArrayList<>();
      for (long id = 1; id <= checkpoints; id++) {
        expectedBarriers.add(id);
      }
      assertThat(g.barriers()).as(why).containsExactlyElementsOf(expectedBarriers);
      assertThat(g.log.stream().filter(s -> !s.startsWith("barrier")).toList()).as(why)
          .hasSize(epochs.size()).doesNotHaveDuplicates();
      int epoch = 0;
      for (String entry : g.log) {
        if (entry.startsWith("barrier")) {
          epoch++;
        } else {
          assertThat(epochs.get(entry)).as("%s: %s is processed after %d snapshots in %s", why, entry, epoch, g.log)
              .isEqualTo(epoch);
        }
      }
      assertPerChannelOrder(g.log);
    }
  }

  // ---- watermark alignment ----

  @Test
  void aChannelWhoseWatermarkRunsAheadIsHeldUntilTheSlowestCatchesUp() {
    Gate g = new Gate(2, 64, 1000, new boolean[2], 10);
    g.watermark(A, 0).watermark(B, 0).flush(A).flush(B);
    g.run();
    g.watermark(A, 100).records(A, 0, 20).flush(A);
    g.run();
    assertThat(g.log).as("A runs 100 ms ahead of B, more than the drift of 10 ms").isEmpty();
    assertThat(g.channels[A].availableCredits()).as("its held buffers keep their credit").isLessThan(1000);

    g.records(B, 0, 3).watermark(B, 89).flush(B);
    g.run();
    assertThat(g.log).as("B is never held; A is still 11 ms ahead").containsExactlyElementsOf(names("B", 0, 3));

    g.watermark(B, 90).flush(B);
    g.run();
    assertThat(g.log).containsExactlyElementsOf(concat(names("B", 0, 3), names("A", 0, 20)));
    assertThat(g.channels[A].availableCredits()).isEqualTo(1000);
  }

  /**
   * The slowest channel's sender may itself wait for the held one (both fed by one upstream task,
   * which waits for credit from the held sender): a task with nothing else to read must not hold
   * on for good, or the job stalls.
   */
  @Test
  void aTaskWithNothingElseToReadReadsItsHeldChannelsAfterAGracePeriod() {
    Gate g = new Gate(2, 64, 1000, new boolean[2], 10);
    g.watermark(A, 0).watermark(B, 0).flush(A).flush(B);
    g.run();
    g.watermark(A, 100).records(A, 0, 20).flush(A);
    g.run();
    assertThat(g.log).as("A runs ahead; B has nothing yet").isEmpty();
    assertThat(g.input.maxWaitNanos()).as("the task wakes up when the grace period ends")
        .isEqualTo(GateInput.STARVED_GRACE_NANOS);
    g.now += GateInput.STARVED_GRACE_NANOS - 1;
    g.run();
    assertThat(g.log).isEmpty();

    g.now += 1;
    g.run();
    assertThat(g.log).as("nothing else came within the grace period: A is read")
        .containsExactlyElementsOf(names("A", 0, 20));
    assertThat(g.input.maxWaitNanos()).as("nothing is held").isEqualTo(Long.MAX_VALUE);

    g.watermark(A, 200).records(A, 20, 23).flush(A).records(B, 0, 3).flush(B);
    g.run();
    assertThat(g.log).as("A is held again from its next watermark on, while B has input")
        .containsExactlyElementsOf(concat(names("A", 0, 20), names("B", 0, 3)));
    g.now += GateInput.STARVED_GRACE_NANOS;
    g.run();
    assertThat(g.log).containsExactlyElementsOf(concat(names("A", 0, 20), names("B", 0, 3), names("A", 20, 23)));
  }

  @Test
  void withoutADriftOrWithOneChannelNothingIsHeld() {
    Gate off = new Gate(2, 64, 1000, new boolean[2], 0);
    off.watermark(A, 0).watermark(B, 0).watermark(A, 1_000_000).records(A, 0, 3).flush(A).flush(B);
    off.run();
    assertThat(off.log).containsExactlyElementsOf(names("A", 0, 3));

    Gate one = new Gate(1, 64, 1000, new boolean[1], 10);
    one.watermark(A, 0).watermark(A, 1_000_000).records(A, 0, 3).flush(A);
    one.run();
    assertThat(one.log).as("a channel is never ahead of itself").containsExactlyElementsOf(names("A", 0, 3));
  }

  @Test
  void theEndOfTimeOnAChannelAheadIsReadOnceTheOthersEndOrGoIdle() {
    Gate ended = new Gate(2, 64, 1000, new boolean[2], 10);
    ended.watermark(A, 0).watermark(B, 0).flush(B);
    ended.records(A, 0, 3).watermark(A, Long.MAX_VALUE).end(A).flush(A);
    ended.run();
    ended.records(B, 0, 3).end(B).flush(B);
    ended.run();
    assertThat(ended.ended).isTrue();
    assertThat(ended.log).containsExactlyInAnyOrderElementsOf(concat(names("A", 0, 3), names("B", 0, 3)));

    Gate idle = new Gate(2, 64, 1000, new boolean[2], 10);
    idle.watermark(A, 0).watermark(B, 0).flush(B).watermark(A, 500).records(A, 0, 3).flush(A);
    idle.run();
    assertThat(idle.log).isEmpty();
    idle.idle(B).flush(B);
    idle.run();
    assertThat(idle.log).as("an idle channel holds no one back").containsExactlyElementsOf(names("A", 0, 3));
  }

  @Test
  void aHeldChannelIsReadWhileACheckpointAligns() {
    Gate g = new Gate(2, 64, 1000, new boolean[2], 10);
    g.watermark(A, 0).watermark(B, 0).flush(B);
    g.watermark(A, 100).records(A, 0, 3).barrier(A, 1).records(A, 3, 6).flush(A);
    g.run();
    assertThat(g.log).isEmpty();
    g.barrier(B, 1).flush(B);
    g.run();
    assertThat(g.log).as("barrier 1 of A was behind the held records: they are read to align it (and A is held"
        + " again only at its next watermark)")
        .containsExactlyElementsOf(concat(names("A", 0, 3), List.of("barrier 1"), names("A", 3, 6)));
    g.watermark(B, 95).records(B, 0, 2).flush(B);
    g.run();
    assertThat(g.log).containsExactlyInAnyOrderElementsOf(
        concat(names("A", 0, 3), List.of("barrier 1"), names("A", 3, 6), names("B", 0, 2)));
  }

  /**
   * Random interleavings of channels whose watermarks run apart, with checkpoints and ends: every
   * record is processed once in per-channel order, every checkpoint completes, the input ends.
   */
  @Test
  void randomWatermarksNeverStallTheInput() {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    for (int round = 0; round < 300; round++) {
      String why = "seed " + seed + ", round " + round;
      int channels = 2 + random.nextInt(2);
      int checkpoints = random.nextInt(3);
      Gate g = new Gate(channels, 40 + random.nextInt(200), 2 + random.nextInt(4), new boolean[channels],
          1 + random.nextInt(50));
      List<List<Object>> scripts = new ArrayList<>();
      int records = 0;
      for (int c = 0; c < channels; c++) {
        List<Object> script = new ArrayList<>();
        long wm = 0;
        int n = 0;
        int barrier = 0;
        for (int i = 20 + random.nextInt(40); i > 0; i--) {
          int what = random.nextInt(10);
          if (what < 5) {
            script.add(n++);
          } else if (what < 9) {
            wm += random.nextInt(random.nextBoolean() ? 5 : 200);
            script.add("wm " + wm);
          } else if (barrier < checkpoints) {
            script.add("barrier " + ++barrier);
          }
        }
        while (barrier < checkpoints) {
          script.add("barrier " + ++barrier);
        }
        if (random.nextBoolean()) {
          script.add("wm " + Long.MAX_VALUE);
        }
        script.add("end");
        records += n;
        scripts.add(script);
      }
      int[] next = new int[channels];
      int remaining = scripts.stream().mapToInt(List::size).sum();
      while (remaining > 0) {
        int c = random.nextInt(channels);
        if (next[c] < scripts.get(c).size()) {
          Object e = scripts.get(c).get(next[c]++);
          remaining--;
          if (e instanceof Integer n) {
            g.records(c, n, n + 1);
          } else if (e.equals("end")) {
            g.end(c);
          } else if (((String) e).startsWith("wm ")) {
            g.watermark(c, Long.parseLong(((String) e).substring(3)));
          } else {
            g.barrier(c, Long.parseLong(((String) e).substring("barrier ".length())));
          }
        }
        if (random.nextInt(4) == 0) {
          g.flush(c); // sends as far as credit goes; the rest waits in the writer
        }
        if (random.nextInt(3) == 0) {
          g.run();
        }
      }
      // the senders send what waits for credit as credit comes back, until the input ends
      for (int turn = 0; !g.ended; turn++) {
        assertThat(turn).as("%s: the input stalled; log %s", why, g.log).isLessThan(10_000);
        for (int c = 0; c < channels; c++) {
          g.flush(c);
        }
        g.run();
      }

      assertThat(g.ended).as(why).isTrue();
      assertThat(g.barriers()).as(why).hasSize(checkpoints);
      assertThat(g.log.stream().filter(s -> !s.startsWith("barrier")).toList()).as(why)
          .hasSize(records).doesNotHaveDuplicates();
      assertPerChannelOrder(g.log);
    }
  }

  // ---- fixture ----

  /** A gate of in-process channels feeding one recording operator through a GateInput. */
  private static final class Gate {
    final List<String> log = new ArrayList<>();
    final InProcessChannel[] channels;
    final ElementWriter[] writers;
    final GateInput input;
    final StreamTask task;
    boolean ended;
    /** The input's clock: it only moves when a test moves it. */
    long now;

    Gate(int n, int bufferSize, int credits, boolean[] endedFromStart) {
      this(n, bufferSize, credits, endedFromStart, 0);
    }

    /** @param maxDrift watermark alignment: how far a channel may run ahead, 0 for off */
    Gate(int n, int bufferSize, int credits, boolean[] endedFromStart, long maxDrift) {
      InputGate gate = new InputGate(n);
      channels = new InProcessChannel[n];
      writers = new ElementWriter[n];
      ChainNode head = new ChainNode(null, new Recording(log));
      ChainNode[] heads = new ChainNode[n];
      for (int c = 0; c < n; c++) {
        channels[c] = new InProcessChannel(gate, c, credits, bufferSize);
        writers[c] = new ElementWriter(channels[c]);
        heads[c] = head;
      }
      input = new GateInput(gate, channels.clone(), heads, new int[n], endedFromStart, true, null, maxDrift);
      input.clock(() -> now);
      task = new StreamTask("aligning", input, List.of(head), List.of(head), List.of(), List.of(),
          new StreamTask.TaskListener() {
            @Override
            public void finished(StreamTask t) {}

            @Override
            public void failed(StreamTask t, Throwable error) {}
          });
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

    Gate watermark(int channel, long timestamp) {
      writers[channel].write(new Watermark(timestamp));
      return this;
    }

    Gate idle(int channel) {
      writers[channel].write(IdleStatus.IDLE);
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

    /** Steps the input until it has nothing to do. */
    void run() {
      for (int i = 0; i < 100_000; i++) {
        task.firePendingWatermarks(); // as the task's loop does between two steps
        int r = input.step();
        if (r == TaskInput.END) {
          ended = true;
          return;
        }
        if (r == TaskInput.NOTHING) {
          return;
        }
      }
      throw new AssertionError("the input never ran out of work");
    }

    List<Long> barriers() {
      return log.stream().filter(s -> s.startsWith("barrier ")).map(s -> Long.parseLong(s.substring(8))).toList();
    }

    long alignmentNanos() {
      return task.counters().alignmentNanos();
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

  private static void assertPerChannelOrder(List<String> log) {
    java.util.Map<Character, Integer> last = new java.util.HashMap<>();
    for (String entry : log) {
      if (entry.startsWith("barrier")) {
        continue;
      }
      int n = Integer.parseInt(entry.substring(1));
      Integer before = last.put(entry.charAt(0), n);
      assertThat(before == null ? -1 : before).as("order of channel %s in %s", entry.charAt(0), log).isLessThan(n);
    }
  }
}
