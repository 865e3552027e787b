package io.tributary.worker.exchange;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.stream.Record;
import io.tributary.stream.Schema;
import io.tributary.stream.StreamElement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A barrier sent with priority overtakes the buffers its channel holds back for credit, and tells
 * the receiver exactly which data buffers are before it.
 */
class PriorityBarrierTest {
  private static final Schema SCHEMA = Schema.of("n");

  @Test
  void aPriorityBarrierOvertakesBuffersWaitingForCreditAndCountsThem() {
    InputGate gate = new InputGate(1);
    InProcessChannel channel = new InProcessChannel(gate, 0, 1, 64);
    ElementWriter writer = new ElementWriter(channel);
    int n = 0;
    while (writer.isAvailable() || n < 30) {
      writer.write(record(n++));
    }
    int before = n;
    writer.writePriorityBarrier(7);
    writer.write(record(n++));
    writer.flush();

    InputGate.PriorityBarrier p = gate.pollPriority();
    assertThat(p).as("the barrier needs no credit").isNotNull();
    assertThat(p.checkpointId()).isEqualTo(7);
    assertThat(p.channel()).isZero();

    // the receiver reads everything: the first p.buffers() buffers hold exactly the records before it
    List<Long> beforeBarrier = new ArrayList<>();
    List<Long> after = new ArrayList<>();
    ElementReader reader = new ElementReader();
    long buffers = 0;
    while (true) {
      InputGate.Arrival a = gate.poll();
      if (a == null) {
        if (writer.drain()) {
          a = gate.poll();
        }
        if (a == null) {
          break;
        }
      }
      buffers++;
      reader.reset(a.buffer());
      while (reader.hasNext()) {
        StreamElement e = reader.next();
        (buffers <= p.buffers() ? beforeBarrier : after).add((Long) ((Record) e).get("n"));
      }
      channel.recycle(a.buffer());
      writer.drain();
    }
    assertThat(p.buffers()).as("buffers sealed before the barrier, sent or waiting").isGreaterThan(1);
    assertThat(beforeBarrier).hasSize(before).startsWith(0L).endsWith((long) before - 1);
    assertThat(after).containsExactly((long) before);
  }

  @Test
  void aPriorityBarrierOnAnEmptyBufferSealsNothing() {
    InputGate gate = new InputGate(1);
    InProcessChannel channel = new InProcessChannel(gate, 0, 4, 64);
    ElementWriter writer = new ElementWriter(channel);
    writer.writePriorityBarrier(1);
    writer.write(record(0));
    writer.writePriorityBarrier(2);
    assertThat(gate.pollPriority().buffers()).isZero();
    assertThat(gate.pollPriority().buffers()).isEqualTo(1);
    assertThat(gate.poll()).isNotNull();
    assertThat(gate.poll()).isNull();
  }

  @Test
  void aChannelThatCannotSendWithPriorityYetGetsTheBarrierInBand() {
    InputGate gate = new InputGate(1);
    InProcessChannel inner = new InProcessChannel(gate, 0, 4, 64);
    OutboundChannel notYetOpen = new OutboundChannel() {
      @Override
      public boolean trySend(Buffer buffer) {
        return inner.trySend(buffer);
      }

      @Override
      public boolean sendPriorityBarrier(long checkpointId, long buffers) {
        return false;
      }

      @Override
      public Buffer freeBuffer() {
        return inner.freeBuffer();
      }

      @Override
      public void onCredit(Runnable wakeup) {}
    };
    ElementWriter writer = new ElementWriter(notYetOpen);
    writer.write(record(0));
    writer.writePriorityBarrier(3);
    writer.flush();

    assertThat(gate.pollPriority()).isNull();
    List<StreamElement> elements = new ArrayList<>();
    ElementReader reader = new ElementReader();
    InputGate.Arrival a;
    while ((a = gate.poll()) != null) {
      reader.reset(a.buffer());
      while (reader.hasNext()) {
        elements.add(reader.next());
      }
    }
    assertThat(elements).hasSize(2).last().isEqualTo(new io.tributary.stream.Barrier(3));
  }

  private static Record record(long n) {
    return new Record(SCHEMA, new Object[] {n}, Record.NO_TIMESTAMP);
  }
}
