package io.tributary.cli.client;

import io.tributary.scheduler.spec.sql.SqlJobs;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Job files: a spec (YAML or JSON) or, named {@code *.sql}, a SQL job. A SQL job's name is the one
 * its text sets ({@code SET 'name' = '...'}), else its file's name without the extension, in
 * lower case with anything but letters, digits and {@code -} made {@code -} ({@code
 * hot_items.sql}: {@code hot-items}).
 */
public final class JobFiles {
  private JobFiles() {}

  /** Whether {@code file} holds a SQL job. */
  public static boolean isSql(String file) {
    return file != null && file.toLowerCase(Locale.ROOT).endsWith(".sql");
  }

  /** The name a SQL job in {@code file} runs under unless its text sets one; null if none can be made. */
  public static String defaultName(String file) {
    String base = Path.of(file).getFileName().toString();
    int dot = base.lastIndexOf('.');
    String name = (dot > 0 ? base.substring(0, dot) : base).toLowerCase(Locale.ROOT)
        .replaceAll("[^a-z0-9-]", "-").replaceAll("^-+|-+$", "");
    return name.isEmpty() ? null : name;
  }

  /** The name of the SQL job {@code text} from {@code file}: its own, else {@link #defaultName}. */
  public static String sqlName(String text, String file) {
    return SqlJobs.declaredName(text).orElseGet(() -> defaultName(file));
  }

  /** The text of {@code file} ({@code -}: stdin); a file that cannot be read fails with exit code 2. */
  static String read(String file) {
    try {
      return "-".equals(file)
          ? new String(System.in.readAllBytes(), StandardCharsets.UTF_8)
          : Files.readString(Path.of(file), StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      throw new CliFailure(ExitCodes.INVALID, "no such file: " + file);
    } catch (IOException | java.io.UncheckedIOException e) {
      throw new CliFailure(ExitCodes.INVALID, "cannot read " + file + ": " + e.getMessage());
    }
  }
}
