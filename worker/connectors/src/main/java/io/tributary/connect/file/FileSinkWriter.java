package io.tributary.connect.file;

import com.fasterxml.jackson.core.JsonGenerator;
import io.tributary.connect.ConnectorException;
import io.tributary.connect.SinkWriter;
import io.tributary.connect.json.JsonRecords;
import io.tributary.stream.Record;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/** One subtask's writer of a {@link FileSink}; see there for the visibility contract. */
final class FileSinkWriter implements SinkWriter {
  private final String sinkId;
  private final Path dir;
  private final int subtask;
  private long seq;
  private Path inProgress;
  private FileOutputStream file;
  private JsonGenerator json;

  FileSinkWriter(String sinkId, Path dir, int subtask, long firstSeq) {
    this.sinkId = sinkId;
    this.dir = dir;
    this.subtask = subtask;
    this.seq = firstSeq;
  }

  @Override
  public void write(Record record) {
    try {
      if (json == null) {
        openInProgress();
      }
      JsonRecords.writeLine(record, json);
    } catch (IOException e) {
      throw failure("cannot write " + inProgress, e);
    }
  }

  @Override
  public void commit() {
    if (json == null) {
      return;
    }
    Path part = dir.resolve(FileSink.partName(subtask, seq));
    try {
      json.close();
      file.getChannel().force(true);
      file.close();
      Files.move(inProgress, part, StandardCopyOption.ATOMIC_MOVE);
      syncDirectory();
    } catch (IOException e) {
      throw failure("cannot commit " + inProgress + " as " + part, e);
    } finally {
      json = null;
      file = null;
    }
    seq++;
  }

  @Override
  public void close() {
    try {
      if (json != null) {
        json.close();
        file.close();
      }
    } catch (IOException e) {
      // uncommitted data is discarded anyway
    } finally {
      json = null;
      file = null;
    }
  }

  private void openInProgress() throws IOException {
    inProgress = dir.resolve("." + FileSink.partName(subtask, seq) + ".inprogress");
    file = new FileOutputStream(inProgress.toFile());
    json = JsonRecords.lineWriter(file);
  }

  private void syncDirectory() {
    try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
      d.force(true);
    } catch (IOException e) {
      // not every platform can fsync a directory; the rename itself is atomic
    }
  }

  private ConnectorException failure(String what, IOException e) {
    return new ConnectorException("file sink '" + sinkId + "': " + what, e);
  }
}
