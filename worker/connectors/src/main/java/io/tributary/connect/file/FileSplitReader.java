package io.tributary.connect.file;

import io.tributary.connect.ConnectorException;
import io.tributary.connect.SplitOutput;
import io.tributary.connect.SplitReader;
import io.tributary.connect.json.JsonRecords;
import io.tributary.connect.json.MalformedRecordException;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Reads one file's JSON lines; opens the file on the first read. */
final class FileSplitReader implements SplitReader {
  private final String sourceId;
  private final Path file;
  private BufferedReader reader;
  private boolean ended;

  FileSplitReader(String sourceId, Path file) {
    this.sourceId = sourceId;
    this.file = file;
  }

  @Override
  public int read(SplitOutput out, int max) {
    if (ended) {
      return END;
    }
    try {
      return readLines(out, max);
    } catch (IOException e) {
      throw new ConnectorException("file source '" + sourceId + "': cannot read " + file, e);
    }
  }

  private int readLines(SplitOutput out, int max) throws IOException {
    if (reader == null) {
      reader = Files.newBufferedReader(file, StandardCharsets.UTF_8);
    }
    int n = 0;
    while (n < max) {
      String line = reader.readLine();
      if (line == null) {
        close();
        ended = true;
        return n == 0 ? END : n;
      }
      if (!line.isBlank()) {
        emit(line, out);
        n++;
      }
    }
    return n;
  }

  private static void emit(String line, SplitOutput out) {
    try {
      out.record(JsonRecords.parse(line));
    } catch (MalformedRecordException e) {
      out.malformed(line, e.getMessage());
    }
  }

  @Override
  public void close() {
    if (reader != null) {
      try {
        reader.close();
      } catch (IOException e) {
        // read-only file: nothing is lost
      }
      reader = null;
    }
  }
}
