package io.tributary.boot;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;

/**
 * What a server keeps under its data directory besides the control plane's stores: the token key
 * ({@code <data>/secrets/token.key}) and the roots of the projects' file directories (by default
 * {@code <data>/files}, one {@code <root>/<project>} per project), which must stay apart from the
 * directories of metadata, checkpoints, local state and secrets.
 */
public final class ServerStorage {
  /** The directories under the data directory that jobs must never reach. */
  public static final List<String> PRIVATE = List.of("metadata", "checkpoints", "local", "secrets");
  private static final int KEY_BYTES = 32;

  private ServerStorage() {}

  /** The default root of the projects' file directories. */
  public static Path defaultFileRoot(Path dataDir) {
    return dataDir.toAbsolutePath().normalize().resolve("files");
  }

  /**
   * Creates the file roots and checks that none of them overlaps a private directory of the data
   * directory (nor contains the data directory).
   *
   * @throws IllegalArgumentException naming the root
   */
  public static void prepareFileRoots(Path dataDir, List<Path> roots) {
    Path data = dataDir.toAbsolutePath().normalize();
    for (Path r : roots) {
      Path root = r.toAbsolutePath().normalize();
      if (data.startsWith(root)) {
        throw new IllegalArgumentException("file root " + root + " contains the data directory " + data
            + "; jobs would reach its metadata and checkpoints (use a directory of its own, such as " + data.resolve("files")
            + ")");
      }
      for (String name : PRIVATE) {
        Path p = data.resolve(name);
        if (root.startsWith(p)) {
          throw new IllegalArgumentException("file root " + root + " lies inside " + p + ", which jobs must not reach");
        }
      }
      try {
        Files.createDirectories(root);
        Path real = root.toRealPath();
        for (String name : PRIVATE) {
          Path p = data.resolve(name);
          if (Files.exists(p) && (real.startsWith(p.toRealPath()) || p.toRealPath().startsWith(real))) {
            throw new IllegalArgumentException("file root " + root + " overlaps " + p + ", which jobs must not reach");
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException("cannot create the file root " + root + ": " + e.getMessage(), e);
      }
    }
  }

  /**
   * The server's token key: {@code TRIBUTARY_TOKEN_KEY} (base64, at least 32 bytes) if set, else
   * {@code <data>/secrets/token.key}, created (owner-only) at the first start.
   */
  public static byte[] tokenKey(Path dataDir, String fromEnvironment) {
    if (fromEnvironment != null && !fromEnvironment.isBlank()) {
      byte[] key;
      try {
        key = Base64.getDecoder().decode(fromEnvironment.trim());
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("TRIBUTARY_TOKEN_KEY is not base64");
      }
      if (key.length < KEY_BYTES) {
        throw new IllegalArgumentException("TRIBUTARY_TOKEN_KEY must hold at least " + KEY_BYTES + " bytes");
      }
      return key;
    }
    Path file = dataDir.resolve("secrets").resolve("token.key");
    try {
      if (Files.exists(file)) {
        byte[] key = Base64.getDecoder().decode(Files.readString(file).trim());
        if (key.length < KEY_BYTES) {
          throw new IllegalArgumentException(file + " holds no valid token key");
        }
        return key;
      }
      Files.createDirectories(file.getParent());
      byte[] key = new byte[KEY_BYTES];
      new SecureRandom().nextBytes(key);
      Path tmp = file.resolveSibling("token.key.tmp");
      Files.deleteIfExists(tmp);
      Files.createFile(tmp);
      try {
        Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-------"));
      } catch (UnsupportedOperationException e) {
        // not a POSIX file system: the directory's permissions apply
      }
      Files.writeString(tmp, Base64.getEncoder().encodeToString(key));
      Files.move(tmp, file, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
      return key;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read or create the token key " + file + ": " + e.getMessage(), e);
    }
  }
}
