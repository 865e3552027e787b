package io.tributary.connectors;

import io.tributary.connect.SourceConnector;
import io.tributary.connect.SourceSplit;
import io.tributary.connect.SplitOutput;
import io.tributary.connect.SplitReader;
import io.tributary.stream.Record;
import java.util.ArrayList;
import java.util.List;

/** A {@link SplitOutput} that keeps everything, for tests (also used by other modules' tests). */
public final class CollectingOutput implements SplitOutput {
  /** A malformed input and why. */
  public record Malformed(String raw, String reason) {}

  public final List<Record> records = new ArrayList<>();
  public final List<Malformed> malformed = new ArrayList<>();

  @Override
  public void record(Record record) {
    records.add(record);
  }

  @Override
  public void malformed(String raw, String reason) {
    malformed.add(new Malformed(raw, reason));
  }

  /** Reads {@code reader} until it ends, {@code max} records per call; returns this. */
  public CollectingOutput drain(SplitReader reader, int max) {
    int n;
    while ((n = reader.read(this, max)) != SplitReader.END) {
      if (n > max || n < 0) {
        throw new AssertionError("read returned " + n + " for max " + max);
      }
    }
    return this;
  }

  /** Reads every split of a bounded source into one output. */
  public static CollectingOutput readAll(SourceConnector source, int parallelism, int max) {
    CollectingOutput out = new CollectingOutput();
    for (SourceSplit split : source.splits(parallelism)) {
      try (SplitReader reader = source.open(split)) {
        out.drain(reader, max);
      }
    }
    return out;
  }
}
