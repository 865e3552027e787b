package io.tributary.connectors.debug;

import com.fasterxml.jackson.core.JsonGenerator;
import io.tributary.connect.SinkConnector;
import io.tributary.connect.SinkWriter;
import io.tributary.connectors.json.JsonRecords;
import io.tributary.stream.Record;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;

/**
 * Prints records as JSON lines on {@code System.out} (as it is when a writer opens), each as soon
 * as it is written, so a user watching a job sees results when they happen. Whole lines are handed
 * over at once, so lines of parallel writers never interleave.
 */
public final class StdoutSink implements SinkConnector {
  @Override
  public SinkWriter open(int subtaskIndex, int parallelism) {
    return new Writer(System.out);
  }

  private static final class Writer implements SinkWriter {
    private final PrintStream target;
    private final ByteArrayOutputStream buffer = new ByteArrayOutputStream(1024);
    private final JsonGenerator json;

    Writer(PrintStream target) {
      this.target = target;
      try {
        this.json = JsonRecords.lineWriter(buffer);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    @Override
    public void write(Record record) {
      try {
        JsonRecords.writeLine(record, json);
        handOver();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    @Override
    public void commit() {
      try {
        handOver();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    @Override
    public void close() {
      buffer.reset();
    }

    private void handOver() throws IOException {
      json.flush();
      if (buffer.size() > 0) {
        synchronized (target) {
          buffer.writeTo(target);
          target.flush();
        }
        buffer.reset();
      }
    }
  }
}
