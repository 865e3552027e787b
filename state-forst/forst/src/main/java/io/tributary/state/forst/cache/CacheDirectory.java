package io.tributary.state.forst.cache;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;

/** Clearing a cache directory. */
final class CacheDirectory {
  private CacheDirectory() {}

  /** Creates {@code dir} if needed and deletes everything inside it. */
  static void reset(Path dir) throws IOException {
    Files.createDirectories(dir);
    Files.walkFileTree(dir, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
        Files.deleteIfExists(file);
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
        if (!d.equals(dir)) {
          Files.deleteIfExists(d);
        }
        return FileVisitResult.CONTINUE;
      }
    });
  }
}
