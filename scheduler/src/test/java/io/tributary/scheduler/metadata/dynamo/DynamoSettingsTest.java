package io.tributary.scheduler.metadata.dynamo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class DynamoSettingsTest {
  @Test
  void noTableMeansNoDynamoStore() {
    assertThat(DynamoSettings.fromEnvironment(Map.of(DynamoSettings.ENDPOINT_ENV, "http://x"))).isEmpty();
    assertThat(DynamoSettings.fromEnvironment(Map.of(DynamoSettings.TABLE_ENV, " "))).isEmpty();
  }

  @Test
  void readsEveryVariable() {
    DynamoSettings settings = DynamoSettings.fromEnvironment(Map.of(
        DynamoSettings.TABLE_ENV, "tributary-metadata",
        DynamoSettings.ENDPOINT_ENV, "http://localhost:4567",
        DynamoSettings.REGION_ENV, "eu-west-1",
        DynamoSettings.CREATE_TABLE_ENV, "true")).orElseThrow();
    assertThat(settings).isEqualTo(new DynamoSettings("tributary-metadata",
        Optional.of(URI.create("http://localhost:4567")), Optional.of("eu-west-1"), true));
    assertThat(DynamoSettings.fromEnvironment(Map.of(DynamoSettings.TABLE_ENV, "t")).orElseThrow())
        .isEqualTo(new DynamoSettings("t", Optional.empty(), Optional.empty(), false));
  }

  @Test
  void aTableIsRequired() {
    assertThatThrownBy(() -> new DynamoSettings("", Optional.empty(), Optional.empty(), false))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
