package io.tributary.worker.task;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.stream.Barrier;
import io.tributary.stream.EndOfInput;
import io.tributary.stream.Record;
import io.tributary.stream.Schema;
import io.tributary.stream.Watermark;
import io.tributary.worker.exchange.ElementWriter;
import io.tributary.worker.exchange.InProcessChannel;
import io.tributary.worker.exchange.InputGate;
import io.tributary.worker.operator.Output;
import io.tributary.worker.operator.TwoInputOperator;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A task whose head has two inputs (a join): each channel's records reach the head tagged with the
 * input its exchange feeds, the task's watermark is the minimum over both inputs' channels, and a
 * barrier is aligned across the channels of both inputs. Two senders per input, stepped on the test
 * thread.
 */
class TwoInputGateTest {
  private static final Schema SCHEMA = Schema.of("n");
  /** Channels 0 and 1 feed the left input, 2 and 3 the right one. */
  private static final int[] INPUT_OF_CHANNEL = {TwoInputOperator.LEFT, TwoInputOperator.LEFT,
      TwoInputOperator.RIGHT, TwoInputOperator.RIGHT};

  private final List<String> log = new ArrayList<>();
  private final InProcessChannel[] channels = new InProcessChannel[4];
  private final ElementWriter[] writers = new ElementWriter[4];
  private final ChainNode head = new ChainNode(null, new Recording(log));
  private final GateInput input;

  TwoInputGateTest() {
    InputGate gate = new InputGate(4);
    ChainNode[] heads = new ChainNode[4];
    for (int c = 0; c < 4; c++) {
      channels[c] = new InProcessChannel(gate, c, 100, 256);
      writers[c] = new ElementWriter(channels[c]);
      heads[c] = head;
    }
    input = new GateInput(gate, channels.clone(), heads, INPUT_OF_CHANNEL, new boolean[4], true);
    StreamTask task = new StreamTask("join", input, List.of(head), List.of(head), List.of(), List.of(),
        new StreamTask.TaskListener() {
          @Override
          public void finished(StreamTask t) {}

          @Override
          public void failed(StreamTask t, Throwable error) {}
        });
    input.open(task);
  }

  @Test
  void recordsAreTaggedWithTheInputOfTheirChannel() {
    send(0, record(1)).send(2, record(2)).send(1, record(3)).send(3, record(4));
    run();
    assertThat(log).containsExactlyInAnyOrder("left 1", "right 2", "left 3", "right 4");
    assertThat(head.recordsIn).isEqualTo(4);
  }

  @Test
  void theWatermarkIsTheMinimumOverBothInputs() {
    send(0, new Watermark(100)).send(1, new Watermark(200)).send(2, new Watermark(300));
    run();
    assertThat(head.watermark).as("right channel 3 has not progressed").isEqualTo(Watermark.NONE);

    send(3, new Watermark(50));
    run();
    assertThat(head.watermark).as("the right input holds the watermark back").isEqualTo(50);

    send(3, new Watermark(400)).send(0, new Watermark(500));
    run();
    assertThat(head.watermark).as("now the left input's channel 1 is the slowest").isEqualTo(200);

    send(1, EndOfInput.INSTANCE).send(2, new Watermark(450));
    run();
    assertThat(head.watermark).as("an ended channel no longer holds it back").isEqualTo(400);
  }

  @Test
  void aBarrierIsAlignedAcrossTheChannelsOfBothInputs() {
    for (int c = 0; c < 3; c++) {
      send(c, new Barrier(1)).send(c, record(10 + c));
    }
    run();
    assertThat(log).as("right channel 3 has not delivered barrier 1: the others' later records wait").isEmpty();

    send(3, record(3)).send(3, new Barrier(1)).send(3, record(13));
    run();
    assertThat(log.subList(0, 2)).containsExactly("right 3", "barrier 1");
    assertThat(log.subList(2, log.size())).containsExactlyInAnyOrder("left 10", "left 11", "right 12", "right 13");
  }

  private TwoInputGateTest send(int channel, Object element) {
    if (element instanceof Record r) {
      writers[channel].write(r);
    } else {
      writers[channel].write((io.tributary.stream.StreamElement) element);
    }
    writers[channel].flush();
    return this;
  }

  /** Steps the input until it has nothing to do, applying each watermark it hands the head (as the task does). */
  private void run() {
    for (int i = 0; i < 10_000; i++) {
      int r = input.step();
      if (head.hasPendingWatermark()) {
        head.watermark = head.pendingWatermark;
      } else if (r == TaskInput.END || r == TaskInput.NOTHING) {
        return;
      }
    }
    throw new AssertionError("the input never ran out of work");
  }

  private static Record record(long n) {
    return new Record(SCHEMA, new Object[] {n}, Record.NO_TIMESTAMP);
  }

  /** Logs {@code left 3}, {@code right 4} and {@code barrier 1}. */
  private record Recording(List<String> log) implements TwoInputOperator {
    @Override
    public void processElement(int input, Record record, Output out) {
      log.add((input == LEFT ? "left " : "right ") + record.get("n"));
    }

    @Override
    public void onBarrier(long checkpointId) {
      log.add("barrier " + checkpointId);
    }
  }
}
