package io.tributary.connect;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where the file sources and sinks of a server's jobs may read and write: under each root, one
 * directory per project ({@code <root>/<project>}); nothing else. A relative path of a job of
 * project {@code p} resolves under the first root's {@code <root>/p}; an absolute one must lie in
 * {@code <root>/p} of one of the roots.
 *
 * <p>Paths are judged as the file system will open them: a {@code file:} URI and {@code %XX}
 * escapes are decoded once, {@code ..} is resolved, and symbolic links are followed (the real path
 * of the deepest existing ancestor, with the rest appended, must stay in the project's
 * directory). The same check runs when the spec is validated and again when a connector opens the
 * file ({@link #checkOpen}), so a link created in between is refused too.
 *
 * <p>{@link #unrestricted()} (for {@code tributary run}) allows every path, resolved against the
 * working directory.
 */
public final class StorageRoots {
  private static final Pattern ESCAPE = Pattern.compile("%([0-9A-Fa-f]{2})");
  private static final StorageRoots UNRESTRICTED = new StorageRoots(List.of());

  private final List<Path> roots;

  private StorageRoots(List<Path> roots) {
    this.roots = roots;
  }

  /** Every path allowed, relative ones against the working directory. */
  public static StorageRoots unrestricted() {
    return UNRESTRICTED;
  }

  /** Per-project directories under each of {@code roots} (at least one). */
  public static StorageRoots of(List<Path> roots) {
    if (roots.isEmpty()) {
      throw new IllegalArgumentException("at least one file root is needed");
    }
    return new StorageRoots(roots.stream().map(p -> p.toAbsolutePath().normalize()).toList());
  }

  public boolean restricted() {
    return !roots.isEmpty();
  }

  /** The roots, absolute and normalized; empty when unrestricted. */
  public List<Path> roots() {
    return roots;
  }

  /** The directory of {@code project} under the first root: where relative paths resolve. */
  public Path projectDirectory(String project) {
    return roots.get(0).resolve(project);
  }

  /**
   * The path a spec's {@code raw} path stands for in a job of {@code project}: decoded once,
   * absolute and normalized (symbolic links are left in, so opening judges them again).
   *
   * @throws AccessRefusedException saying why, if it is not a path or leaves the project's directories
   */
  public Path resolve(String project, String raw) {
    Path p = decode(raw);
    if (!restricted()) {
      return p.toAbsolutePath().normalize();
    }
    Path declared = (p.isAbsolute() ? p : projectDirectory(project).resolve(p)).normalize();
    Path area = areaOf(declared);
    if (area == null || !area.getFileName().toString().equals(project)) {
      throw new AccessRefusedException("'" + raw + "' is outside this project's file directories ("
          + String.join(", ", roots.stream().map(r -> r.resolve(project).toString()).toList())
          + "); use a path relative to " + projectDirectory(project));
    }
    checkOpen(declared);
    return declared;
  }

  /**
   * Checks, as a connector opens {@code declared} (a path {@link #resolve} returned), that the file
   * system would take it to a place inside the project directory the path names: symbolic links
   * followed at this moment.
   *
   * @return the real path to open (for a path that does not exist yet: its deepest existing
   *     ancestor's real path with the rest appended)
   * @throws AccessRefusedException if it leads elsewhere
   */
  public Path checkOpen(Path declared) {
    Path absolute = declared.toAbsolutePath().normalize();
    if (!restricted()) {
      return absolute;
    }
    Path area = areaOf(absolute);
    if (area == null) {
      throw new AccessRefusedException("'" + declared + "' is outside the directories this server lets jobs use");
    }
    Path realArea = real(area);
    Path real = real(absolute);
    if (!real.startsWith(realArea)) {
      throw new AccessRefusedException("'" + declared + "' leads to " + real
          + " through a symbolic link, outside the project's directory " + area);
    }
    return real;
  }

  /** {@code <root>/<project>} that {@code absolute} lies in, or null. */
  private Path areaOf(Path absolute) {
    for (Path root : roots) {
      if (absolute.startsWith(root) && absolute.getNameCount() > root.getNameCount()) {
        return root.resolve(absolute.getName(root.getNameCount()).toString());
      }
    }
    return null;
  }

  /** The real path of the deepest existing ancestor of {@code p}, with the rest of {@code p} appended. */
  static Path real(Path p) {
    Path existing = p;
    List<String> rest = new ArrayList<>();
    while (existing != null && !Files.exists(existing, LinkOption.NOFOLLOW_LINKS)) {
      rest.add(0, existing.getFileName().toString());
      existing = existing.getParent();
    }
    if (existing == null) {
      return p;
    }
    Path real;
    try {
      real = existing.toRealPath();
    } catch (IOException e) {
      // a dangling symbolic link: where it points does not exist, so judge its target's text
      try {
        Path target = Files.readSymbolicLink(existing);
        real = real(existing.resolveSibling(target).normalize());
      } catch (IOException | UnsupportedOperationException e2) {
        real = existing;
      }
    }
    for (String name : rest) {
      real = real.resolve(name);
    }
    return real.normalize();
  }

  /**
   * A spec's path decoded once: a {@code file:} URI becomes its path, {@code %XX} escapes their
   * characters (so {@code %2e%2e} is {@code ..}, as a URL-decoding layer would read it).
   *
   * @throws AccessRefusedException if it is empty, not a path, or holds a NUL
   */
  public static Path decode(String raw) {
    if (raw == null || raw.isBlank()) {
      throw new AccessRefusedException("a file path must not be empty");
    }
    String text = raw;
    try {
      if (text.regionMatches(true, 0, "file:", 0, 5)) {
        URI uri = new URI(text);
        if (uri.getAuthority() != null && !uri.getAuthority().isEmpty() && !"localhost".equals(uri.getAuthority())) {
          throw new AccessRefusedException("'" + raw + "' names another host; file paths are local");
        }
        text = uri.getPath() == null ? uri.getSchemeSpecificPart() : uri.getPath();
      } else {
        text = unescape(text);
      }
      if (text == null || text.isEmpty() || text.indexOf('\0') >= 0) {
        throw new AccessRefusedException("'" + raw + "' is not a valid path");
      }
      return Path.of(text);
    } catch (URISyntaxException | InvalidPathException e) {
      throw new AccessRefusedException("'" + raw + "' is not a valid path");
    }
  }

  private static String unescape(String text) {
    if (text.indexOf('%') < 0) {
      return text;
    }
    Matcher m = ESCAPE.matcher(text);
    StringBuilder out = new StringBuilder();
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    int last = 0;
    while (m.find()) {
      if (m.start() != last) {
        flush(bytes, out);
        out.append(text, last, m.start());
      }
      bytes.write(Integer.parseInt(m.group(1), 16));
      last = m.end();
    }
    flush(bytes, out);
    out.append(text.substring(last));
    return out.toString();
  }

  private static void flush(java.io.ByteArrayOutputStream bytes, StringBuilder out) {
    if (bytes.size() > 0) {
      out.append(new String(bytes.toByteArray(), StandardCharsets.UTF_8));
      bytes.reset();
    }
  }
}
