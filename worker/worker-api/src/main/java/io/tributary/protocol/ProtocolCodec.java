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

  /**
   * Whether {@code a} and {@code b} are the same message on the wire (whatever the order of their
   * maps, and whether an integral number is held as an {@code Integer} or a {@code Long}): a plan
   * that made a round trip through a worker is the same as the one planned here.
   */
  public static boolean sameContent(Object a, Object b) {
    try {
      return MAPPER.readTree(encode(a)).equals(MAPPER.readTree(encode(b)));
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot compare " + a.getClass().getSimpleName() + "s: " + e.getMessage(), e);
    }
  }

  /** @throws IOException when {@code bytes} is not a {@code type} */
  public static <T> T decode(byte[] bytes, Class<T> type) throws IOException {
    return MAPPER.readValue(bytes, type);
  }
}
