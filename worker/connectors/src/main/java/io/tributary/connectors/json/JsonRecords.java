package io.tributary.connectors.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.tributary.stream.Record;
import io.tributary.stream.Schema;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * JSON objects to and from {@link Record}s, on Jackson's streaming API. Thread-safe.
 *
 * <p>Parsing: the object's fields, in order, become the record's (interned) {@link Schema};
 * integral numbers become Long (Double when they do not fit), other numbers Double, strings,
 * booleans and null stay as they are, nested objects and arrays become {@code Map}/{@code List}.
 * Parsed records carry {@link Record#NO_TIMESTAMP}. Anything but exactly one JSON object (with
 * distinct field names) is a {@link MalformedRecordException}.
 *
 * <p>Writing: one JSON object per record, fields in schema order, no trailing newline.
 */
public final class JsonRecords {
  private static final JsonMapper MAPPER = JsonMapper.builder().build();
  private static final JsonFactory FACTORY = MAPPER.getFactory();
  private static final Schema DEAD_LETTER = Schema.of("source", "error", "raw");

  private JsonRecords() {}

  /** Parses one JSON object (for example a line of a file, without its line break). */
  public static Record parse(String json) throws MalformedRecordException {
    try (JsonParser p = FACTORY.createParser(json)) {
      return parse(p);
    } catch (IOException e) {
      throw malformed(e);
    }
  }

  /** Parses one JSON object from UTF-8 bytes. */
  public static Record parse(byte[] json) throws MalformedRecordException {
    return parse(json, 0, json.length);
  }

  /** Parses one JSON object from {@code len} UTF-8 bytes at {@code offset}. */
  public static Record parse(byte[] json, int offset, int len) throws MalformedRecordException {
    try (JsonParser p = FACTORY.createParser(json, offset, len)) {
      return parse(p);
    } catch (IOException e) {
      throw malformed(e);
    }
  }

  /** The record as one JSON object. */
  public static String toJson(Record record) {
    return new String(toJsonBytes(record), StandardCharsets.UTF_8);
  }

  /** The record as one JSON object in UTF-8. */
  public static byte[] toJsonBytes(Record record) {
    ByteArrayBuilder out = new ByteArrayBuilder(256);
    try (JsonGenerator g = FACTORY.createGenerator(out)) {
      write(record, g);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  /** The chosen fields of a record as one JSON object (for example a Kafka message key). */
  public static byte[] toJsonBytes(Record record, List<String> fields) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (String f : fields) {
      m.put(f, record.get(f));
    }
    return toJsonBytes(Record.of(m, Record.NO_TIMESTAMP));
  }

  /**
   * A generator for JSON lines on {@code out} (use {@link #writeLine}). Closing the generator
   * flushes it but leaves {@code out} open.
   */
  public static JsonGenerator lineWriter(OutputStream out) throws IOException {
    JsonGenerator g = FACTORY.createGenerator(out);
    g.setRootValueSeparator(null);
    g.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
    return g;
  }

  /** Writes the record as one JSON object and a line break. */
  public static void writeLine(Record record, JsonGenerator g) throws IOException {
    write(record, g);
    g.writeRaw('\n');
  }

  /** Writes the record as one JSON object to {@code g}. */
  public static void write(Record record, JsonGenerator g) throws IOException {
    Schema schema = record.schema();
    Object[] values = record.values();
    g.writeStartObject();
    for (int i = 0; i < values.length; i++) {
      g.writeFieldName(schema.name(i));
      writeValue(values[i], g);
    }
    g.writeEndObject();
  }

  /**
   * A dead-letter record for input a source could not decode.
   *
   * @param sourceId the source that read it
   * @param raw the input as read
   * @param reason why it could not be decoded
   */
  public static Record deadLetter(String sourceId, String raw, String reason) {
    return new Record(DEAD_LETTER, new Object[] {sourceId, reason, raw}, Record.NO_TIMESTAMP);
  }

  private static Record parse(JsonParser p) throws IOException, MalformedRecordException {
    if (p.nextToken() != JsonToken.START_OBJECT) {
      throw new MalformedRecordException("not a JSON object");
    }
    List<String> names = new ArrayList<>(8);
    List<Object> values = new ArrayList<>(8);
    String name;
    while ((name = p.nextFieldName()) != null) {
      names.add(name);
      values.add(readValue(p, p.nextToken()));
    }
    if (p.nextToken() != null) {
      throw new MalformedRecordException("unexpected content after the JSON object");
    }
    Schema schema;
    try {
      schema = Schema.of(names);
    } catch (IllegalArgumentException e) {
      throw new MalformedRecordException(e.getMessage());
    }
    return new Record(schema, values.toArray(), Record.NO_TIMESTAMP);
  }

  private static Object readValue(JsonParser p, JsonToken t) throws IOException {
    return switch (t) {
      case VALUE_STRING -> p.getText();
      case VALUE_NUMBER_INT -> p.getNumberType() == JsonParser.NumberType.BIG_INTEGER
          ? p.getDoubleValue() : (Object) p.getLongValue();
      case VALUE_NUMBER_FLOAT -> p.getDoubleValue();
      case VALUE_TRUE -> Boolean.TRUE;
      case VALUE_FALSE -> Boolean.FALSE;
      case VALUE_NULL -> null;
      case START_OBJECT -> readObject(p);
      case START_ARRAY -> readArray(p);
      default -> throw new JsonParseException(p, "unexpected " + t);
    };
  }

  private static Map<String, Object> readObject(JsonParser p) throws IOException {
    Map<String, Object> m = new LinkedHashMap<>();
    String name;
    while ((name = p.nextFieldName()) != null) {
      m.put(name, readValue(p, p.nextToken()));
    }
    return m;
  }

  private static List<Object> readArray(JsonParser p) throws IOException {
    List<Object> list = new ArrayList<>();
    JsonToken t;
    while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
      list.add(readValue(p, t));
    }
    return list;
  }

  private static void writeValue(Object v, JsonGenerator g) throws IOException {
    if (v == null) {
      g.writeNull();
    } else if (v instanceof String s) {
      g.writeString(s);
    } else if (v instanceof Long l) {
      g.writeNumber(l);
    } else if (v instanceof Double d) {
      g.writeNumber(d);
    } else if (v instanceof Boolean b) {
      g.writeBoolean(b);
    } else if (v instanceof Map<?, ?> m) {
      writeMap(m, g);
    } else if (v instanceof List<?> list) {
      g.writeStartArray();
      for (Object e : list) {
        writeValue(e, g);
      }
      g.writeEndArray();
    } else {
      MAPPER.writeValue(g, v);
    }
  }

  private static void writeMap(Map<?, ?> m, JsonGenerator g) throws IOException {
    g.writeStartObject();
    for (Map.Entry<?, ?> e : m.entrySet()) {
      g.writeFieldName(String.valueOf(e.getKey()));
      writeValue(e.getValue(), g);
    }
    g.writeEndObject();
  }

  private static MalformedRecordException malformed(IOException e) {
    String msg = e instanceof JsonProcessingException j ? j.getOriginalMessage() : e.getMessage();
    // Jackson appends where an unclosed object started, naming a redacted source: noise for users
    msg = String.valueOf(msg).replaceAll("\\s*\\(start marker at \\[Source:.*$", "");
    return new MalformedRecordException("invalid JSON: " + msg, e);
  }
}
