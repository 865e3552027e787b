package io.tributary.connectors.file;

import io.tributary.connect.ConnectorException;
import io.tributary.connect.SourceConnector;
import io.tributary.connect.SourceSplit;
import io.tributary.connect.SplitReader;
import io.tributary.connect.StorageRoots;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * A bounded source of JSON lines. {@code path} is one file, or a directory whose non-hidden
 * (not starting with '.') regular files, sorted by name, are the splits. Blank lines are skipped;
 * lines that are not JSON objects are reported as malformed.
 */
public final class FileSource implements SourceConnector {
  private final String sourceId;
  private final Path path;
  private final StorageRoots roots;

  public FileSource(String sourceId, Path path) {
    this(sourceId, path, StorageRoots.unrestricted());
  }

  /**
   * @param roots where this source may read: {@code path} and every file are checked when listed and
   *     again when opened (symbolic links followed at that moment)
   */
  public FileSource(String sourceId, Path path, StorageRoots roots) {
    this.sourceId = sourceId;
    this.path = path;
    this.roots = roots;
  }

  @Override
  public List<FileSplit> splits(int parallelism) {
    roots.checkOpen(path);
    if (Files.isRegularFile(path)) {
      return List.of(new FileSplit(path));
    }
    if (!Files.isDirectory(path)) {
      throw new ConnectorException(
          "file source '" + sourceId + "': path '" + path + "' is neither a file nor a directory");
    }
    try (Stream<Path> files = Files.list(path)) {
      return files
          .filter(f -> !f.getFileName().toString().startsWith(".") && Files.isRegularFile(f))
          .sorted()
          .map(FileSplit::new)
          .toList();
    } catch (IOException e) {
      throw new ConnectorException("file source '" + sourceId + "': cannot list " + path, e);
    }
  }

  @Override
  public SplitReader open(SourceSplit split) {
    return open(split, null);
  }

  /**
   * Resumes at a {@link SplitReader#position()} of the split's reader: the byte offset after the
   * last line it consumed. The file must not have changed before that offset.
   */
  @Override
  public SplitReader open(SourceSplit split, String position) {
    if (!(split instanceof FileSplit f)) {
      throw new IllegalArgumentException("not a file split: " + split);
    }
    if (position == null) {
      return new FileSplitReader(sourceId, f.file(), 0, roots);
    }
    long offset;
    try {
      offset = Long.parseLong(position.trim());
    } catch (NumberFormatException e) {
      offset = -1;
    }
    if (offset < 0) {
      throw new ConnectorException("file source '" + sourceId + "': cannot resume " + f.file()
          + " at position '" + position + "': not a byte offset");
    }
    return new FileSplitReader(sourceId, f.file(), offset, roots);
  }

  @Override
  public boolean bounded() {
    return true;
  }
}
