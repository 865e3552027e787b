package io.tributary.connectors.file;

import com.fasterxml.jackson.core.JsonGenerator;
import io.tributary.connect.ConnectorException;
import io.tributary.connect.SinkWriter;
import io.tributary.connectors.json.JsonRecords;
import io.tributary.stream.Record;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;

/** One subtask's writer of a {@link FileSink}; see there for the visibility contract. */
final class FileSinkWriter implements SinkWriter {
  private final String sinkId;
  private final Path dir;
  private final int subtask;
  private final long attempt;
  private long seq;
  private Path inProgress;
  private java.io.OutputStream file;
  private java.nio.channels.FileChannel channel;
  private JsonGenerator json;
  /** This writer's pending files not known to be committed, each {pending name, final name}. */
  private final List<String[]> pending = new ArrayList<>();

  /** Non-null when records are written as inserts of a changelog. */
  private final io.tributary.connectors.json.ChangelogRows inserts;

  FileSinkWriter(String sinkId, Path dir, int subtask, long attempt, long firstSeq, boolean insertsAsChangelog) {
    this.inserts = insertsAsChangelog ? new io.tributary.connectors.json.ChangelogRows() : null;
    this.sinkId = sinkId;
    this.dir = dir;
    this.subtask = subtask;
    this.attempt = attempt;
    this.seq = firstSeq;
  }

  @Override
  public void write(Record record) {
    try {
      if (json == null) {
        openInProgress();
      }
      JsonRecords.writeLine(inserts == null ? record : inserts.inserted(record), json);
    } catch (IOException e) {
      throw failure("cannot write " + inProgress, e);
    }
  }

  /**
   * Seals the in-progress file (flush, fsync) as a hidden pending file and returns a committable
   * for it and for this writer's earlier pending files that are still pending; null when there is
   * none.
   */
  @Override
  public String preCommit(long checkpointId) {
    pending.removeIf(p -> !Files.exists(dir.resolve(p[0])));
    if (json != null) {
      String part = FileSink.partName(subtask, attempt, seq);
      Path target = dir.resolve(FileSink.pendingName(part));
      sealInto(target);
      FileSink.syncDirectory(dir);
      pending.add(new String[] {target.getFileName().toString(), part});
    }
    return pending.isEmpty() ? null : FileSink.committable(checkpointId, pending);
  }

  /** Publishes everything written: the pending files, then the in-progress one. */
  @Override
  public void commit() {
    for (String[] p : pending) {
      FileSink.publish(sinkId, dir, dir.resolve(p[0]), dir.resolve(p[1]));
    }
    pending.clear();
    if (json != null) {
      sealInto(dir.resolve(FileSink.partName(subtask, attempt, seq)));
    }
    FileSink.syncDirectory(dir);
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

  /** Flushes, fsyncs and closes the in-progress file and renames it to {@code target}. */
  private void sealInto(Path target) {
    try {
      json.close();
      channel.force(true);
      file.close();
      Files.move(inProgress, target, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw failure("cannot commit " + inProgress + " as " + target, e);
    } finally {
      json = null;
      file = null;
    }
    seq++;
  }

  private void openInProgress() throws IOException {
    inProgress = dir.resolve(FileSink.inProgressName(FileSink.partName(subtask, attempt, seq)));
    // a new file, never one planted in its place (CREATE_NEW also refuses a symbolic link)
    channel = java.nio.channels.FileChannel.open(inProgress, java.nio.file.StandardOpenOption.CREATE_NEW,
        java.nio.file.StandardOpenOption.WRITE, java.nio.file.LinkOption.NOFOLLOW_LINKS);
    file = java.nio.channels.Channels.newOutputStream(channel);
    json = JsonRecords.lineWriter(file);
  }

  private ConnectorException failure(String what, IOException e) {
    return new ConnectorException("file sink '" + sinkId + "': " + what, e);
  }
}
