package io.tributary.connectors.file;

import io.tributary.connect.SourceSplit;
import java.nio.file.Path;

/** One file of a file source; its id is the file name. */
public record FileSplit(Path file) implements SourceSplit {
  @Override
  public String id() {
    return file.getFileName().toString();
  }
}
