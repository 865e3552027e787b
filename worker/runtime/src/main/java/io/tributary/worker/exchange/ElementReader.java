package io.tributary.worker.exchange;

import static io.tributary.worker.exchange.ElementWriter.*;

import io.tributary.stream.Barrier;
import io.tributary.stream.EndOfInput;
import io.tributary.stream.IdleStatus;
import io.tributary.stream.Record;
import io.tributary.stream.Schema;
import io.tributary.stream.StreamElement;
import io.tributary.stream.Watermark;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Decodes the elements of one channel from its buffers, in order. Task thread only. */
public final class ElementReader {
  private final List<Schema> schemas = new ArrayList<>();
  private byte[] buf;
  private int pos;
  private int end;

  /** Starts reading {@code buffer}. */
  public void reset(Buffer buffer) {
    this.buf = buffer.data;
    this.pos = 0;
    this.end = buffer.length;
  }

  /**
   * A reader at this one's position that knows the schemas this one read so far, and reads on
   * independently (the buffer it reads must not be recycled while it does).
   */
  public ElementReader fork() {
    ElementReader r = new ElementReader();
    r.schemas.addAll(schemas);
    r.buf = buf;
    r.pos = pos;
    r.end = end;
    return r;
  }

  public boolean hasNext() {
    return buf != null && pos < end;
  }

  /** The next element of the current buffer. */
  public StreamElement next() {
    byte tag = buf[pos++];
    while (tag == SCHEMA) {
      readSchema();
      tag = buf[pos++];
    }
    return switch (tag) {
      case RECORD -> readRecord();
      case WATERMARK -> new Watermark(getLong());
      case BARRIER -> new Barrier(getLong());
      case END -> EndOfInput.INSTANCE;
      case IDLE -> IdleStatus.IDLE;
      case ACTIVE -> IdleStatus.ACTIVE;
      default -> throw new IllegalStateException("corrupt buffer: tag " + tag + " at " + (pos - 1));
    };
  }

  private void readSchema() {
    int id = getInt();
    int n = getInt();
    String[] names = new String[n];
    for (int i = 0; i < n; i++) {
      names[i] = readString(buf[pos++]);
    }
    while (schemas.size() <= id) {
      schemas.add(null);
    }
    schemas.set(id, Schema.of(names));
  }

  private Record readRecord() {
    Schema schema = schemas.get(getInt());
    long ts = getLong();
    Object[] values = new Object[schema.size()];
    for (int i = 0; i < values.length; i++) {
      values[i] = readValue();
    }
    return new Record(schema, values, ts);
  }

  private Object readValue() {
    byte type = buf[pos++];
    return switch (type) {
      case V_NULL -> null;
      case V_LONG -> getLong();
      case V_DOUBLE -> Double.longBitsToDouble(getLong());
      case V_ASCII, V_UTF8 -> readString(type);
      case V_TRUE -> Boolean.TRUE;
      case V_FALSE -> Boolean.FALSE;
      case V_JSON -> readJson();
      default -> throw new IllegalStateException("corrupt buffer: value type " + type + " at " + (pos - 1));
    };
  }

  private String readString(byte type) {
    int len = getInt();
    String s = new String(buf, pos, len, type == V_ASCII ? StandardCharsets.ISO_8859_1 : StandardCharsets.UTF_8);
    pos += len;
    return s;
  }

  private Object readJson() {
    int len = getInt();
    try {
      Object v = JSON.readValue(buf, pos, len, Object.class);
      pos += len;
      return v;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private int getInt() {
    byte[] b = buf;
    int p = pos;
    pos = p + 4;
    return (b[p] & 0xff) << 24 | (b[p + 1] & 0xff) << 16 | (b[p + 2] & 0xff) << 8 | (b[p + 3] & 0xff);
  }

  private long getLong() {
    byte[] b = buf;
    int p = pos;
    pos = p + 8;
    return (b[p] & 0xffL) << 56 | (b[p + 1] & 0xffL) << 48 | (b[p + 2] & 0xffL) << 40 | (b[p + 3] & 0xffL) << 32
        | (b[p + 4] & 0xffL) << 24 | (b[p + 5] & 0xffL) << 16 | (b[p + 6] & 0xffL) << 8 | (b[p + 7] & 0xffL);
  }
}
