package io.tributary.worker.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.plan.ExecutionPlan;
import io.tributary.protocol.AttemptDeployment;
import io.tributary.protocol.AttemptId;
import io.tributary.protocol.TaskDeployment;
import io.tributary.state.KeyGroupRange;
import io.tributary.worker.exchange.Buffer;
import io.tributary.worker.exchange.InboundChannel;
import io.tributary.worker.exchange.InputGate;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Channels between two workers' data planes over real loopback TCP (contract C2). */
@Timeout(60)
class NetTransportTest {
  private static final AttemptId ATTEMPT = new AttemptId("job", 3);
  private static final DataTokens TOKENS = new DataTokens("cluster-secret-for-tests");

  private final NetTransport a = new NetTransport("a", "127.0.0.1", 0, "127.0.0.1", TOKENS);
  private final NetTransport b = new NetTransport("b", "127.0.0.1", 0, "127.0.0.1", TOKENS);

  @AfterEach
  void close() {
    a.close();
    b.close();
  }

  private AttemptDeployment deployment(String token) {
    TaskDeployment receiver = new TaskDeployment(1, 0, "b", new KeyGroupRange(0, 128), List.of(), null);
    return new AttemptDeployment(ATTEMPT, new ExecutionPlan("job", 128, "heap", List.of(), List.of()), null,
        List.of(), List.of(receiver), new AttemptDeployment.Network(token, Map.of("a", a.address(), "b", b.address())));
  }

  private static Buffer filled(int n) {
    Buffer buf = new Buffer(Buffer.DEFAULT_SIZE);
    for (int i = 0; i < 4; i++) {
      buf.data()[i] = (byte) (n >>> (24 - 8 * i));
    }
    buf.setLength(4);
    return buf;
  }

  private static int number(Buffer buf) {
    return ((buf.data()[0] & 0xff) << 24) | ((buf.data()[1] & 0xff) << 16) | ((buf.data()[2] & 0xff) << 8)
        | (buf.data()[3] & 0xff);
  }

  @Test
  void buffersArriveInOrderAndWhatIsInFlightStaysWithinTheCredits() {
    AttemptDeployment d = deployment(TOKENS.issue(ATTEMPT));
    InputGate gate = new InputGate(1);
    InboundChannel in = b.inbound(d, 7, gate, 0);
    RemoteOutboundChannel out = (RemoteOutboundChannel) a.outbound(d, 7, d.tasks().get(0));

    int window = NetTransport.EXCLUSIVE_CREDITS + NetTransport.FLOATING_CREDITS;
    int[] sent = {0};
    // nothing is read yet: the sender, reporting a backlog, gets its exclusive and all floating credits
    await("the sender used every credit the receiver could give", () -> {
      if (out.trySend(filled(sent[0]), 5)) {
        sent[0]++;
      }
      return sent[0] == window;
    });
    assertThat(out.trySend(filled(sent[0]), 5)).as("without a credit the sender must stop").isFalse();

    int received = 0;
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (received < 200) {
      assertThat(System.nanoTime()).as("all 200 buffers arrive").isLessThan(deadline);
      if (sent[0] < 200 && out.trySend(filled(sent[0]), 200 - sent[0] - 1)) {
        sent[0]++;
      }
      assertThat(sent[0] - received).as("in flight or unread").isLessThanOrEqualTo(window);
      InputGate.Arrival arrival = gate.poll();
      if (arrival != null) {
        assertThat(number(arrival.buffer())).isEqualTo(received);
        in.recycle(arrival.buffer());
        received++;
      }
    }
  }

  @Test
  void aPriorityBarrierOvertakesTheBuffersWaitingForCreditAndCountsThem() {
    AttemptDeployment d = deployment(TOKENS.issue(ATTEMPT));
    InputGate gate = new InputGate(1);
    InboundChannel in = b.inbound(d, 9, gate, 0);
    RemoteOutboundChannel out = (RemoteOutboundChannel) a.outbound(d, 9, d.tasks().get(0));
    await("the receiver granted credits", () -> out.availableCredits() > 0);
    // records in buffers: more than the credits, so some wait in the writer
    io.tributary.worker.exchange.ElementWriter writer = new io.tributary.worker.exchange.ElementWriter(out);
    io.tributary.stream.Schema schema = io.tributary.stream.Schema.of("n", "pad");
    String pad = "x".repeat(1000);
    int n = 0;
    while (writer.isAvailable() || n < 200) {
      writer.write(new io.tributary.stream.Record(schema, new Object[] {(long) n++, pad}, 0));
    }
    writer.writePriorityBarrier(4);

    InputGate.PriorityBarrier[] barrier = {null};
    await("the barrier arrives although the sender has no credit", () -> (barrier[0] = gate.pollPriority()) != null);
    assertThat(barrier[0].checkpointId()).isEqualTo(4);
    assertThat(writer.isAvailable()).as("buffers before the barrier still wait for credit").isFalse();

    // the buffers before it are exactly the first barrier.buffers() ones, holding every record written before
    io.tributary.worker.exchange.ElementReader reader = new io.tributary.worker.exchange.ElementReader();
    long buffers = 0;
    long records = 0;
    while (buffers < barrier[0].buffers()) {
      writer.drain();
      InputGate.Arrival a = gate.poll();
      if (a == null) {
        LockSupport.parkNanos(1_000_000);
        continue;
      }
      buffers++;
      reader.reset(a.buffer());
      while (reader.hasNext()) {
        assertThat(((io.tributary.stream.Record) reader.next()).get("n")).isEqualTo(records++);
      }
      in.recycle(a.buffer());
    }
    assertThat(records).isEqualTo(n);
    assertThat(writer.drain()).as("nothing was written after the barrier").isTrue();
  }

  @Test
  void aSenderWithoutTheAttemptsTokenIsRefusedBeforeAnyDataMoves() {
    AttemptDeployment forged = deployment(new DataTokens("another-secret").issue(ATTEMPT));
    InputGate gate = new InputGate(1);
    b.inbound(deployment(TOKENS.issue(ATTEMPT)), 7, gate, 0);
    RemoteOutboundChannel out = (RemoteOutboundChannel) a.outbound(forged, 7, forged.tasks().get(0));

    await("the refused connection breaks the channel", () -> {
      try {
        out.trySend(filled(1));
        return false;
      } catch (UncheckedIOException e) {
        return true;
      }
    });
    assertThat(out.availableCredits()).as("no credit was ever granted").isZero();
    assertThat(gate.poll()).as("nothing reached the receiver").isNull();
  }

  @Test
  void aLostConnectionFailsTheReceiverUnlessItsChannelHadEnded() {
    AttemptDeployment d = deployment(TOKENS.issue(ATTEMPT));
    InputGate gate = new InputGate(1);
    b.inbound(d, 7, gate, 0);
    RemoteOutboundChannel out = (RemoteOutboundChannel) a.outbound(d, 7, d.tasks().get(0));
    await("credits arrive", () -> out.availableCredits() > 0);

    a.release(ATTEMPT); // the sender's worker drops the attempt

    await("the receiver learns the channel broke", () -> {
      InputGate.Arrival arrival = gate.poll();
      return arrival != null && arrival.buffer() == null && arrival.failure() != null;
    });
    assertThatThrownBy(() -> out.trySend(filled(1))).isInstanceOf(UncheckedIOException.class);
  }

  private static void await(String what, BooleanSupplier condition) {
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not within 20 s: " + what);
      }
      LockSupport.parkNanos(1_000_000);
    }
  }
}
