package io.tributary.worker.state;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Encodes one record field value in keyed state: a type byte, then the value. Values are those of
 * {@link io.tributary.stream.Record}: Long (Integer, Short and Byte are written as Long), Double
 * (Float as Double), String, Boolean, null, and nested JSON ({@code Map}, {@code List}) as JSON
 * text. The encoding is stable: state written by one version is read by the next.
 */
public final class ValueCodec {
  private static final byte NULL = 0;
  private static final byte LONG = 1;
  private static final byte DOUBLE = 2;
  private static final byte STRING = 3;
  private static final byte TRUE = 4;
  private static final byte FALSE = 5;
  private static final byte JSON = 6;
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private ValueCodec() {}

  public static void write(Object value, DataOutput out) throws IOException {
    if (value == null) {
      out.writeByte(NULL);
    } else if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte) {
      out.writeByte(LONG);
      out.writeLong(((Number) value).longValue());
    } else if (value instanceof Double || value instanceof Float) {
      out.writeByte(DOUBLE);
      out.writeDouble(((Number) value).doubleValue());
    } else if (value instanceof String s) {
      out.writeByte(STRING);
      writeBytes(s.getBytes(StandardCharsets.UTF_8), out);
    } else if (value instanceof Boolean b) {
      out.writeByte(b ? TRUE : FALSE);
    } else {
      out.writeByte(JSON);
      try {
        writeBytes(MAPPER.writeValueAsBytes(value), out);
      } catch (JsonProcessingException e) {
        throw new IOException("cannot encode " + value.getClass().getSimpleName() + " as JSON", e);
      }
    }
  }

  public static Object read(DataInput in) throws IOException {
    byte type = in.readByte();
    return switch (type) {
      case NULL -> null;
      case LONG -> in.readLong();
      case DOUBLE -> in.readDouble();
      case STRING -> new String(readBytes(in), StandardCharsets.UTF_8);
      case TRUE -> Boolean.TRUE;
      case FALSE -> Boolean.FALSE;
      case JSON -> MAPPER.readValue(readBytes(in), Object.class);
      default -> throw new IOException("corrupt state: value type " + type);
    };
  }

  /**
   * The value as a record reads it back from state: whole numbers as Long, others as Double;
   * everything else unchanged. Use it for values compared with values read back (distinct sets).
   */
  public static Object normalized(Object value) {
    if (value instanceof Integer || value instanceof Short || value instanceof Byte) {
      return ((Number) value).longValue();
    }
    if (value instanceof Float f) {
      return f.doubleValue();
    }
    return value;
  }

  private static void writeBytes(byte[] bytes, DataOutput out) throws IOException {
    out.writeInt(bytes.length);
    out.write(bytes);
  }

  private static byte[] readBytes(DataInput in) throws IOException {
    byte[] bytes = new byte[in.readInt()];
    in.readFully(bytes);
    return bytes;
  }
}
