package io.tributary.image;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * The image this module's build wrote ({@code image.tarball}, set by the pom), unpacked once per
 * test JVM under {@code target/image-it/}: the tarball's files, and the layers' file system.
 */
final class UnpackedImage {
  private static ImageTarball tarball;
  private static Path root;

  private UnpackedImage() {}

  /** The tarball's manifest and config. */
  static synchronized ImageTarball tarball() {
    if (tarball == null) {
      try {
        unpack();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
    return tarball;
  }

  private static void unpack() throws IOException, InterruptedException {
    Path image = Path.of(System.getProperty("image.tarball", "target/tributary-image.tar"));
    if (!Files.isRegularFile(image)) {
      throw new IllegalStateException(image + " is missing: the image is built by `mvn package` of infra/image");
    }
    Path work = image.resolveSibling("image-it");
    deleteTree(work);
    ImageTarball t = ImageTarball.open(image, work.resolve("tarball"));
    t.unpack(work.resolve("rootfs"));
    root = work.resolve("rootfs");
    tarball = t;
  }

  /** The image's file system: every layer unpacked in order. */
  static Path root() {
    tarball();
    return root;
  }

  /** {@code path} of the image ({@code /opt/java}) in the unpacked file system. */
  static Path file(String path) {
    return root().resolve(path.substring(1));
  }

  private static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> {
        try {
          Files.delete(p);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
    }
  }
}
