package io.tributary.connect.file;

import io.tributary.connect.ConnectorException;
import io.tributary.connect.SinkConnector;
import io.tributary.connect.SinkWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A sink writing JSON lines into the directory {@code path} (created when missing).
 *
 * <p>Visibility contract: committed output is exactly the files named {@code
 * part-<subtask>-<seq>.jsonl}. Each subtask writes into a hidden in-progress file (its name starts
 * with '.'); {@link SinkWriter#commit()} flushes, fsyncs and atomically renames it to the next
 * {@code part} file, so a reader never sees a partial file. A writer never overwrites committed
 * output: its sequence numbers continue after the highest one already in the directory for its
 * subtask. Hidden files left by writers closed without commit are not output.
 */
public final class FileSink implements SinkConnector {
  private final String sinkId;
  private final Path dir;

  public FileSink(String sinkId, Path dir) {
    this.sinkId = sinkId;
    this.dir = dir;
  }

  @Override
  public SinkWriter open(int subtaskIndex, int parallelism) {
    try {
      Files.createDirectories(dir);
      return new FileSinkWriter(sinkId, dir, subtaskIndex, nextSequence(subtaskIndex));
    } catch (IOException e) {
      throw new ConnectorException("file sink '" + sinkId + "': cannot create directory " + dir, e);
    }
  }

  /** The committed file name of a subtask's {@code seq}-th commit. */
  public static String partName(int subtask, long seq) {
    return "part-" + subtask + "-" + seq + ".jsonl";
  }

  private long nextSequence(int subtask) throws IOException {
    Pattern part = Pattern.compile("part-" + subtask + "-(\\d+)\\.jsonl");
    long next = 0;
    try (Stream<Path> files = Files.list(dir)) {
      for (Path f : (Iterable<Path>) files::iterator) {
        Matcher m = part.matcher(f.getFileName().toString());
        if (m.matches()) {
          next = Math.max(next, Long.parseLong(m.group(1)) + 1);
        }
      }
    }
    return next;
  }
}
