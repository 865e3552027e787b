package io.tributary.protocol;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;

/**
 * The worker protocol's messages as JSON: {@link ControlMessage}s, {@link WorkerReport}s and
 * everything they carry. Integral numbers in open maps (connector properties, sampled records) are
 * read back as {@code Long}.
 */
public final class ProtocolCodec {
  private static final ObjectMapper MAPPER = new ObjectMapper()
      .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false)
      .configure(DeserializationFeature.USE_LONG_FOR_INTS, true);

  private ProtocolCodec() {}

  public static byte[] encode(Object message) {
    try {
      return MAPPER.writeValueAsBytes(message);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("cannot encode " + message.getClass().getSimpleName() + ": "
          + e.getOriginalMessage(), e);
    }
  }

  /** @throws IOException when {@code bytes} is not a {@code type} */
  public static <T> T decode(byte[] bytes, Class<T> type) throws IOException {
    return MAPPER.readValue(bytes, type);
  }
}
