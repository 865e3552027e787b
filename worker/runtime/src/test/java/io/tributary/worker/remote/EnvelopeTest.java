package io.tributary.worker.remote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.connect.AccessRefusedException;
import io.tributary.connect.Endpoints;
import io.tributary.connect.StorageRoots;
import io.tributary.connectors.ConnectorPolicy;
import io.tributary.protocol.ProtocolCodec;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a worker learns as it registers travels intact: its intervals and the connector policy it must enforce. */
class EnvelopeTest {
  @TempDir
  Path tmp;

  private static Envelope.Registered roundTrip(Envelope.Registered r) throws Exception {
    return (Envelope.Registered) ProtocolCodec.decode(ProtocolCodec.encode(r), Envelope.class);
  }

  @Test
  void aRestrictedPolicyArrivesAsRestrictiveAsItLeft() throws Exception {
    Path files = tmp.resolve("files");
    ConnectorPolicy sent = new ConnectorPolicy(StorageRoots.of(List.of(files)),
        Endpoints.parse("loopback:9000-9999,kafka.internal:9092").exceptLoopbackPorts(Set.of(9090)));
    Envelope.Registered got = roundTrip(new Envelope.Registered("/objects", 1000, 100, Envelope.Access.of(sent)));
    assertThat(got.metricsMillis()).isEqualTo(100);
    assertThat(got.heartbeatMillis()).isEqualTo(1000);
    ConnectorPolicy policy = got.access().policy();

    assertThat(policy.endpoints().refusal("127.0.0.1:9092")).isEmpty();
    assertThat(policy.endpoints().refusal("kafka.internal:9092")).isEmpty();
    assertThat(policy.endpoints().refusal("127.0.0.1:9090")).as("the server's own port").isPresent();
    assertThat(policy.endpoints().refusal("10.0.0.1:9092")).isPresent();
    assertThat(policy.files().checkOpen(files.resolve("team-a").resolve("in.jsonl")))
        .isEqualTo(files.resolve("team-a").resolve("in.jsonl"));
    assertThatThrownBy(() -> policy.files().checkOpen(Path.of("/etc/passwd")))
        .isInstanceOf(AccessRefusedException.class);
  }

  @Test
  void anUnrestrictedPolicyStaysUnrestricted() throws Exception {
    ConnectorPolicy policy = roundTrip(new Envelope.Registered("/objects", 1000, 1000,
        Envelope.Access.of(ConnectorPolicy.unrestricted()))).access().policy();
    assertThat(policy.files().restricted()).isFalse();
    assertThat(policy.endpoints().refusal("10.0.0.1:9092")).isEmpty();
  }

  @Test
  void nothingAllowedStaysNothing() throws Exception {
    ConnectorPolicy policy = roundTrip(new Envelope.Registered("/objects", 1000, 1000, Envelope.Access.of(
        new ConnectorPolicy(StorageRoots.of(List.of(tmp)), Endpoints.parse("none"))))).access().policy();
    assertThat(policy.endpoints().refusal("127.0.0.1:9092")).isPresent();
  }
}
