package io.tributary.state.forst.registry;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.regex.Pattern;

/**
 * Content-derived object names for immutable files (contract C6): {@code shared/<sha256>.<ext>}.
 * Two files with the same bytes get the same name, so a file already in the object store is
 * referenced again instead of uploaded again. The extension is kept so tools recognise the file
 * type; it is not part of the identity beyond the name.
 */
public final class ContentNames {
  /** Where shared immutable files live by default. */
  public static final String SHARED_PREFIX = "shared/";

  private static final Pattern CONTENT_NAME = Pattern.compile("(.*/)?[0-9a-f]{64}(\\.[A-Za-z0-9_-]+)?");

  private ContentNames() {}

  /** {@code shared/<sha256 of the file>.<extension of its file name>}. */
  public static String forFile(Path file) throws IOException {
    return forFile(SHARED_PREFIX, file);
  }

  /** {@code prefix + <sha256 of the file> + .<extension of its file name>}; prefix empty or ending in {@code /}. */
  public static String forFile(String prefix, Path file) throws IOException {
    return name(prefix, sha256Hex(file), extensionOf(file.getFileName().toString()));
  }

  /** {@code prefix + <sha256 of bytes> + extension}; {@code extension} is empty or like {@code .sst}. */
  public static String forBytes(String prefix, byte[] bytes, String extension) {
    return name(prefix, HexFormat.of().formatHex(digest().digest(bytes)), extension);
  }

  /** The lower-case hex SHA-256 of a file's content, read in a streaming way. */
  public static String sha256Hex(Path file) throws IOException {
    MessageDigest digest = digest();
    byte[] buffer = new byte[64 * 1024];
    try (InputStream in = Files.newInputStream(file)) {
      for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
        digest.update(buffer, 0, n);
      }
    }
    return HexFormat.of().formatHex(digest.digest());
  }

  /** Whether {@code name} has the shape of a content-derived name. */
  public static boolean isContentName(String name) {
    return CONTENT_NAME.matcher(name).matches();
  }

  private static String name(String prefix, String hash, String extension) {
    if (!prefix.isEmpty() && !prefix.endsWith("/")) {
      throw new IllegalArgumentException("prefix must be empty or end with '/': " + prefix);
    }
    if (!extension.isEmpty() && !extension.matches("\\.[A-Za-z0-9_-]+")) {
      throw new IllegalArgumentException("extension must be empty or like '.sst': " + extension);
    }
    return prefix + hash + extension;
  }

  private static String extensionOf(String fileName) {
    int dot = fileName.lastIndexOf('.');
    String ext = dot <= 0 ? "" : fileName.substring(dot);
    return ext.matches("\\.[A-Za-z0-9_-]+") ? ext : "";
  }

  private static MessageDigest digest() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required by every Java platform", e);
    }
  }
}
