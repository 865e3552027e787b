package io.tributary.worker.exchange;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.stream.Barrier;
import io.tributary.stream.EndOfInput;
import io.tributary.stream.IdleStatus;
import io.tributary.stream.Record;
import io.tributary.stream.Schema;
import io.tributary.stream.StreamElement;
import io.tributary.stream.Watermark;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ElementCodecTest {
  private static final Schema BID = Schema.of("auction", "price", "channel", "ok", "extra", "nested");

  /** Every element written comes out equal and in order, across buffer boundaries. */
  @Test
  void roundTripsElementsAcrossManyBuffers() {
    long seed = System.nanoTime();
    Random rnd = new Random(seed);
    List<StreamElement> in = new ArrayList<>();
    for (int i = 0; i < 20_000; i++) {
      in.add(randomElement(rnd, i));
    }
    List<StreamElement> out = transfer(in, 1_000_000);
    assertThat(out).as("seed %d", seed).containsExactlyElementsOf(in);
  }

  @Test
  void aProjectionSendsOnlyTheFieldsTheReceiverReads() {
    InputGate gate = new InputGate(1);
    InProcessChannel channel = new InProcessChannel(gate, 0, 100, Buffer.DEFAULT_SIZE);
    ElementWriter writer = new ElementWriter(channel);
    Projection keep = new Projection(List.of("price", "auction", "missing"));
    Record bid = new Record(BID, new Object[] {7L, 2.5, "Google", true, "x".repeat(500), null}, 42);
    Record other = new Record(Schema.of("auction"), new Object[] {9L}, 43);
    for (int i = 0; i < 1000; i++) {
      writer.write(i % 2 == 0 ? bid : other, keep);
    }
    writer.flush();
    List<StreamElement> out = new ArrayList<>();
    ElementReader reader = new ElementReader();
    InputGate.Arrival a;
    int buffers = 0;
    while ((a = gate.poll()) != null) {
      buffers++;
      reader.reset(a.buffer());
      while (reader.hasNext()) {
        out.add(reader.next());
      }
    }
    assertThat(buffers).as("500-byte strings were not sent").isEqualTo(1);
    assertThat(out).hasSize(1000);
    assertThat(out.get(0)).isEqualTo(new Record(Schema.of("price", "auction"), new Object[] {2.5, 7L}, 42));
    assertThat(out.get(1)).isEqualTo(other);
  }

  @Test
  void aGroupAggregateOverAnUpsertStreamAlsoGetsTheChangeKindAndTheInputKey() {
    var sum = new io.tributary.plan.AggregatePlan("s", io.tributary.plan.AggregatePlan.Function.SUM, "top");
    assertThat(Projection.forReceiver(new io.tributary.plan.GroupAggregatePlan("g", List.of("category"),
        List.of(sum), List.of("auction", "category"))).fields()).containsExactly("_op", "auction", "category", "top");
    assertThat(Projection.forReceiver(new io.tributary.plan.GroupAggregatePlan("g", List.of("category"),
        List.of(sum))).fields()).containsExactly("category", "top");
  }

  @Test
  void anElementLargerThanABufferGetsABufferOfItsOwn() {
    String big = "x".repeat(Buffer.DEFAULT_SIZE * 3);
    Record r = new Record(Schema.of("big"), new Object[] {big}, 7);
    List<StreamElement> in = List.of(new Watermark(1), r, new Watermark(2));
    assertThat(transfer(in, 10)).containsExactlyElementsOf(in);
  }

  @Test
  void withoutCreditBuffersWaitAndTheWriterReportsUnavailable() {
    InputGate gate = new InputGate(1);
    InProcessChannel channel = new InProcessChannel(gate, 0, 1, Buffer.DEFAULT_SIZE);
    ElementWriter writer = new ElementWriter(channel);
    Record r = new Record(Schema.of("s"), new Object[] {"y".repeat(1000)}, 1);
    int written = 0;
    while (writer.isAvailable()) {
      writer.write(r);
      written++;
    }
    // one buffer went out on the only credit, the next one waits
    assertThat(channel.availableCredits()).isZero();
    assertThat(written).isGreaterThan(30);
    InputGate.Arrival a = gate.poll();
    assertThat(gate.poll()).isNull();
    channel.recycle(a.buffer());
    assertThat(writer.drain()).isTrue();
    assertThat(writer.isAvailable()).isTrue();
    assertThat(gate.poll()).isNotNull();
  }

  private static List<StreamElement> transfer(List<StreamElement> in, int credits) {
    InputGate gate = new InputGate(1);
    InProcessChannel channel = new InProcessChannel(gate, 0, credits, Buffer.DEFAULT_SIZE);
    ElementWriter writer = new ElementWriter(channel);
    List<StreamElement> out = new ArrayList<>();
    ElementReader reader = new ElementReader();
    for (StreamElement e : in) {
      writer.write(e);
    }
    writer.flush();
    InputGate.Arrival a;
    while ((a = gate.poll()) != null) {
      reader.reset(a.buffer());
      while (reader.hasNext()) {
        out.add(reader.next());
      }
      channel.recycle(a.buffer());
    }
    return out;
  }

  private static StreamElement randomElement(Random rnd, int i) {
    switch (rnd.nextInt(12)) {
      case 0:
        return new Watermark(rnd.nextLong());
      case 1:
        return new Barrier(i);
      case 2:
        return rnd.nextBoolean() ? IdleStatus.IDLE : IdleStatus.ACTIVE;
      case 3:
        return EndOfInput.INSTANCE;
      case 4:
        return new Record(Schema.of("k" + rnd.nextInt(50)), new Object[] {rnd.nextLong()}, i);
      default:
        Object[] v = {
            rnd.nextLong(),
            rnd.nextBoolean() ? rnd.nextDouble() : null,
            rnd.nextBoolean() ? "Google" : "Zürich ✓",
            rnd.nextBoolean(),
            "e".repeat(rnd.nextInt(300)),
            rnd.nextInt(4) == 0 ? Map.of("a", 1) : null};
        return new Record(BID, v, rnd.nextBoolean() ? Record.NO_TIMESTAMP : rnd.nextLong());
    }
  }
}
