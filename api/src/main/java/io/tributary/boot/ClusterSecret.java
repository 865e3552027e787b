package io.tributary.boot;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * The secret workers prove they know to join a server's pool ({@code TRIBUTARY_CLUSTER_SECRET}).
 * Without the variable, the server makes one at its first start and keeps it in
 * {@code <data>/secrets/cluster-secret} (readable by its owner only), so workers started with it keep working
 * across restarts.
 *
 * @param value the secret
 * @param created whether this start made it (the server prints it once then)
 */
public record ClusterSecret(String value, boolean created) {
  public static final String ENV = "TRIBUTARY_CLUSTER_SECRET";
  private static final int MIN_LENGTH = 16;

  /** The secret from the environment, else the data directory's (made if missing). */
  public static ClusterSecret load(Path dataDir) {
    String env = System.getenv(ENV);
    if (env != null && !env.isBlank()) {
      check(env.trim(), ENV);
      return new ClusterSecret(env.trim(), false);
    }
    Path file = dataDir.resolve("secrets").resolve("cluster-secret");
    try {
      if (Files.exists(file)) {
        String s = Files.readString(file, StandardCharsets.UTF_8).trim();
        check(s, file.toString());
        return new ClusterSecret(s, false);
      }
      Files.createDirectories(file.getParent());
      byte[] b = new byte[24];
      new SecureRandom().nextBytes(b);
      String s = "trc_" + HexFormat.of().formatHex(b);
      Files.writeString(file, s + "\n", StandardCharsets.UTF_8);
      try {
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
      } catch (UnsupportedOperationException e) {
        // not a POSIX file system: the data directory's own permissions guard it
      }
      return new ClusterSecret(s, true);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read or create the cluster secret " + file + ": " + e.getMessage(), e);
    }
  }

  private static void check(String secret, String where) {
    if (secret.length() < MIN_LENGTH) {
      throw new IllegalArgumentException("the cluster secret in " + where + " is shorter than " + MIN_LENGTH
          + " characters; choose a longer one");
    }
  }
}
