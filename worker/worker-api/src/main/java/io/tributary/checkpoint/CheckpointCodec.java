package io.tributary.checkpoint;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;

/** Checkpoint metadata as JSON (the format of the metadata object). */
public final class CheckpointCodec {
  private static final ObjectMapper MAPPER = new ObjectMapper()
      .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

  private CheckpointCodec() {}

  public static byte[] encode(CheckpointMetadata metadata) {
    try {
      return MAPPER.writerWithDefaultPrettyPrinter().writeValueAsBytes(metadata);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot encode checkpoint " + metadata.id(), e);
    }
  }

  /** @throws IOException when {@code bytes} is not checkpoint metadata */
  public static CheckpointMetadata decode(byte[] bytes) throws IOException {
    return MAPPER.readValue(bytes, CheckpointMetadata.class);
  }
}
