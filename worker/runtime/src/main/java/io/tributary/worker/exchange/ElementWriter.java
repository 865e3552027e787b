package io.tributary.worker.exchange;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.stream.Barrier;
import io.tributary.stream.EndOfInput;
import io.tributary.stream.IdleStatus;
import io.tributary.stream.Record;
import io.tributary.stream.Schema;
import io.tributary.stream.StreamElement;
import io.tributary.stream.Watermark;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Serializes the stream elements of one channel into buffers and sends full buffers as credit
 * allows. Schemas are sent once per channel and then referred to by id. Task thread only.
 *
 * <p>Wire format per element: a tag byte, then the element. Records: schema id (int), timestamp
 * (long), then per value a type byte and its bytes. See {@link ElementReader}.
 */
public final class ElementWriter {
  static final byte RECORD = 'R';
  static final byte SCHEMA = 'S';
  static final byte WATERMARK = 'W';
  static final byte BARRIER = 'B';
  static final byte END = 'E';
  static final byte IDLE = 'I';
  static final byte ACTIVE = 'A';

  static final byte V_NULL = 0;
  static final byte V_LONG = 1;
  static final byte V_DOUBLE = 2;
  static final byte V_ASCII = 3;
  static final byte V_UTF8 = 4;
  static final byte V_TRUE = 5;
  static final byte V_FALSE = 6;
  static final byte V_JSON = 7;

  static final ObjectMapper JSON = new ObjectMapper();

  private static final Overflow OVERFLOW = new Overflow();

  private final OutboundChannel channel;
  private final ArrayDeque<Buffer> pending = new ArrayDeque<>();
  private final IdentityHashMap<Schema, Integer> schemaIds = new IdentityHashMap<>();
  private Schema lastSchema;
  private int lastSchemaId;
  /** Data buffers sealed so far (sent or waiting for credit): the number a priority barrier carries. */
  private long sealed;
  private Buffer current;
  private byte[] buf;
  private int pos;
  private int limit;

  public ElementWriter(OutboundChannel channel) {
    this.channel = channel;
  }

  /** Wakes the writing task when the receiver returns credit. */
  public void onCredit(Runnable wakeup) {
    channel.onCredit(wakeup);
  }

  /** Whether no full buffer waits for credit. */
  public boolean isAvailable() {
    return pending.isEmpty();
  }

  /** Appends {@code element}; never blocks (a full buffer waits in a queue if there is no credit). */
  public void write(StreamElement element) {
    write(element, null);
  }

  /**
   * Appends {@code element}, keeping only the fields of {@code projection} if it is a record
   * (null keeps all).
   */
  public void write(StreamElement element, Projection projection) {
    if (current == null) {
      startBuffer();
    }
    int start = pos;
    try {
      tryEncode(element, projection);
      return;
    } catch (Overflow o) {
      pos = start;
    }
    if (start > 0) {
      seal();
      startBuffer();
      try {
        tryEncode(element, projection);
        return;
      } catch (Overflow o) {
        pos = 0;
      }
    }
    writeOversized(element, projection);
  }

  /** Encodes at the current position or throws Overflow, leaving the schema dictionary as it was. */
  private void tryEncode(StreamElement element, Projection projection) {
    if (!(element instanceof Record r)) {
      encode(element);
      return;
    }
    Schema newSchema = null;
    try {
      Schema schema = projection == null ? r.schema() : projection.schema(r.schema());
      if (schema != lastSchema) {
        Integer id = schemaIds.get(schema);
        if (id == null) {
          newSchema = schema;
          id = schemaIds.size();
          schemaIds.put(schema, id);
        }
        lastSchema = schema;
        lastSchemaId = id;
      }
      encodeRecord(r, newSchema, projection);
    } catch (Overflow o) {
      if (newSchema != null) {
        schemaIds.remove(newSchema);
      }
      lastSchema = null;
      throw o;
    }
  }

  private void encodeRecord(Record r, Schema newSchema, Projection projection) {
    if (newSchema != null) {
      writeSchema(newSchema);
    }
    putByte(RECORD);
    putInt(lastSchemaId);
    putLong(r.timestamp());
    Object[] values = r.values();
    if (projection == null) {
      for (Object v : values) {
        putValue(v);
      }
    } else {
      for (int i : projection.indexes(r.schema())) {
        putValue(values[i]);
      }
    }
  }

  /** Sends the partly filled buffer, if any (before going idle, on barriers, at the end). */
  public void flush() {
    if (current != null && pos > 0) {
      seal();
    }
    drain();
  }

  /**
   * Sends barrier {@code checkpointId} with priority (unaligned checkpoints): the partly filled
   * buffer is sealed so that the barrier falls between two buffers, then the barrier overtakes the
   * buffers waiting for credit, carrying how many data buffers this channel sealed before it. A
   * channel that cannot send it with priority yet gets it in-band.
   */
  public void writePriorityBarrier(long checkpointId) {
    if (current != null && pos > 0) {
      seal();
    }
    if (!channel.sendPriorityBarrier(checkpointId, sealed)) {
      write(new Barrier(checkpointId));
    }
  }

  /** Sends queued buffers while credit lasts; true when none is left waiting. */
  public boolean drain() {
    while (!pending.isEmpty()) {
      if (!channel.trySend(pending.peekFirst(), pending.size() - 1)) {
        return false;
      }
      pending.pollFirst();
    }
    return true;
  }

  private void writeOversized(StreamElement element, Projection projection) {
    // one element larger than a buffer: give it a buffer of its own
    int size = Buffer.DEFAULT_SIZE * 2;
    while (true) {
      current = new Buffer(size);
      buf = current.data;
      pos = 0;
      limit = buf.length;
      try {
        tryEncode(element, projection);
        seal();
        return;
      } catch (Overflow o) {
        size *= 2;
      }
    }
  }

  private void startBuffer() {
    current = channel.freeBuffer();
    buf = current.data;
    pos = 0;
    limit = buf.length;
  }

  private void seal() {
    current.length = pos;
    sealed++;
    pending.addLast(current);
    current = null;
    buf = null;
    pos = 0;
    drain();
  }

  private void encode(StreamElement element) {
    if (element instanceof Watermark w) {
      putByte(WATERMARK);
      putLong(w.timestamp());
    } else if (element instanceof Barrier b) {
      putByte(BARRIER);
      putLong(b.checkpointId());
    } else if (element instanceof EndOfInput) {
      putByte(END);
    } else if (element instanceof IdleStatus s) {
      putByte(s.idle() ? IDLE : ACTIVE);
    } else {
      throw new IllegalArgumentException("unknown element " + element);
    }
  }

  private void writeSchema(Schema schema) {
    putByte(SCHEMA);
    putInt(schemaIds.get(schema));
    putInt(schema.size());
    for (int i = 0; i < schema.size(); i++) {
      putString(schema.name(i));
    }
  }

  private void putValue(Object v) {
    if (v == null) {
      putByte(V_NULL);
    } else if (v instanceof Long l) {
      putByte(V_LONG);
      putLong(l);
    } else if (v instanceof String s) {
      putString(s);
    } else if (v instanceof Double d) {
      putByte(V_DOUBLE);
      putLong(Double.doubleToRawLongBits(d));
    } else if (v instanceof Boolean b) {
      putByte(b ? V_TRUE : V_FALSE);
    } else if (v instanceof Integer || v instanceof Short || v instanceof Byte) {
      putByte(V_LONG);
      putLong(((Number) v).longValue());
    } else if (v instanceof Float f) {
      putByte(V_DOUBLE);
      putLong(Double.doubleToRawLongBits(f.doubleValue()));
    } else if (v instanceof Map<?, ?> || v instanceof List<?>) {
      byte[] json;
      try {
        json = JSON.writeValueAsBytes(v);
      } catch (JsonProcessingException e) {
        throw new IllegalArgumentException("cannot serialize nested value " + v, e);
      }
      putByte(V_JSON);
      putInt(json.length);
      putBytes(json, 0, json.length);
    } else {
      putString(v.toString());
    }
  }

  private void putString(String s) {
    int n = s.length();
    ensure(5 + n);
    int p = pos + 5;
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      if (c >= 0x80) {
        byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
        putByte(V_UTF8);
        putInt(utf8.length);
        putBytes(utf8, 0, utf8.length);
        return;
      }
      buf[p++] = (byte) c;
    }
    buf[pos] = V_ASCII;
    writeIntAt(pos + 1, n);
    pos = p;
  }

  private void putBytes(byte[] b, int off, int len) {
    ensure(len);
    System.arraycopy(b, off, buf, pos, len);
    pos += len;
  }

  private void putByte(byte b) {
    ensure(1);
    buf[pos++] = b;
  }

  private void putInt(int v) {
    ensure(4);
    writeIntAt(pos, v);
    pos += 4;
  }

  private void writeIntAt(int p, int v) {
    buf[p] = (byte) (v >>> 24);
    buf[p + 1] = (byte) (v >>> 16);
    buf[p + 2] = (byte) (v >>> 8);
    buf[p + 3] = (byte) v;
  }

  private void putLong(long v) {
    ensure(8);
    byte[] b = buf;
    int p = pos;
    b[p] = (byte) (v >>> 56);
    b[p + 1] = (byte) (v >>> 48);
    b[p + 2] = (byte) (v >>> 40);
    b[p + 3] = (byte) (v >>> 32);
    b[p + 4] = (byte) (v >>> 24);
    b[p + 5] = (byte) (v >>> 16);
    b[p + 6] = (byte) (v >>> 8);
    b[p + 7] = (byte) v;
    pos = p + 8;
  }

  private void ensure(int n) {
    if (pos + n > limit) {
      throw OVERFLOW;
    }
  }

  /** Thrown inside the writer when an element does not fit the current buffer; never escapes. */
  private static final class Overflow extends RuntimeException {
    Overflow() {
      super(null, null, false, false);
    }
  }
}
