package io.tributary.connectors.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.connect.ConnectorException;
import java.util.OptionalLong;
import java.util.Set;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionState;
import org.junit.jupiter.api.Test;

class KafkaCommittableTest {
  private static final KafkaCommittable C = new KafkaCommittable("p-0-3-1", 1042, 7, 1_767_225_600_123L, 12);

  @Test
  void roundTripsThroughItsJson() {
    assertThat(C.toJson()).isEqualTo("{\"transactionalId\":\"p-0-3-1\",\"producerId\":1042,\"epoch\":7,"
        + "\"startTimeMs\":1767225600123,\"checkpointId\":12}");
    assertThat(KafkaCommittable.parse("out", C.toJson())).isEqualTo(C);
    assertThat(C.forCheckpoint(13).sameTransaction(C)).isTrue();
  }

  @Test
  void isOpenOnlyWhileTheCoordinatorReportsThatVeryTransactionOngoing() {
    assertThat(C.isOpenIn(described(TransactionState.ONGOING, 1042, 7, 1_767_225_600_123L))).isTrue();
    assertThat(C.isOpenIn(described(TransactionState.COMPLETE_COMMIT, 1042, 8, -1))).isFalse();
    assertThat(C.isOpenIn(described(TransactionState.ONGOING, 1042, 8, 1_767_225_600_999L)))
        .as("a later transaction after an epoch bump (protocol version 2)").isFalse();
    assertThat(C.isOpenIn(described(TransactionState.ONGOING, 1042, 7, 1_767_225_600_999L)))
        .as("a later transaction of the same producer and epoch (protocol version 1)").isFalse();
    assertThat(C.isOpenIn(described(TransactionState.ONGOING, 99, 7, 1_767_225_600_123L))).isFalse();
    assertThat(C.isOpenIn(null)).isFalse();
  }

  @Test
  void aCommittableWithoutStartTimeIsMatchedOnProducerIdAndEpoch() {
    KafkaCommittable old = KafkaCommittable.parse("out",
        "{\"transactionalId\":\"p-0-3-1\",\"producerId\":1042,\"epoch\":7,\"checkpointId\":12}");

    assertThat(old.isOpenIn(described(TransactionState.ONGOING, 1042, 7, 5))).isTrue();
  }

  @Test
  void garbageIsAConnectorError() {
    assertThatThrownBy(() -> KafkaCommittable.parse("out", "{\"producerId\":1}"))
        .isInstanceOf(ConnectorException.class).hasMessageContaining("without transactionalId");
    assertThatThrownBy(() -> KafkaCommittable.parse("out", "s3://bucket/file"))
        .isInstanceOf(ConnectorException.class).hasMessageContaining("kafka sink 'out': not a Kafka committable");
  }

  private static TransactionDescription described(TransactionState state, long producerId, int epoch, long start) {
    return new TransactionDescription(1, state, producerId, epoch, 900_000,
        start < 0 ? OptionalLong.empty() : OptionalLong.of(start), Set.of());
  }
}
