package io.tributary.server;

import io.tributary.scheduler.spec.InvalidSpecException;
import io.tributary.scheduler.spec.JobSpec;
import io.tributary.scheduler.spec.SinkSpec;
import io.tributary.scheduler.spec.SourceSpec;
import io.tributary.scheduler.spec.SpecError;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A server reads and writes files only under its allowed roots: a spec whose file source or sink
 * points elsewhere ({@code /etc}, {@code ../../}) is refused with the pointer of the path. Relative
 * paths resolve against the server's working directory, as the connectors resolve them.
 */
final class FileRoots {
  private final List<Path> roots;

  FileRoots(List<Path> roots) {
    this.roots = roots.stream().map(p -> p.toAbsolutePath().normalize()).toList();
  }

  void check(JobSpec spec) {
    List<SpecError> errors = new ArrayList<>();
    for (Map.Entry<String, SourceSpec> e : spec.sources().entrySet()) {
      check("/sources/" + e.getKey() + "/path", e.getValue().type(), e.getValue().properties(), errors);
    }
    for (Map.Entry<String, SinkSpec> e : spec.sinks().entrySet()) {
      check("/sinks/" + e.getKey() + "/path", e.getValue().type(), e.getValue().properties(), errors);
    }
    if (!errors.isEmpty()) {
      throw new InvalidSpecException(errors);
    }
  }

  private void check(String pointer, String type, Map<String, Object> properties, List<SpecError> errors) {
    if (!"file".equals(type) || properties == null || !(properties.get("path") instanceof String)) {
      return;
    }
    String raw = (String) properties.get("path");
    Path p;
    try {
      p = Path.of(raw).toAbsolutePath().normalize();
    } catch (java.nio.file.InvalidPathException ex) {
      errors.add(new SpecError(pointer, "is not a valid path"));
      return;
    }
    for (Path root : roots) {
      if (p.startsWith(root)) {
        return;
      }
    }
    errors.add(new SpecError(pointer, "'" + raw + "' is outside the directories this server may use ("
        + String.join(", ", roots.stream().map(Path::toString).toList()) + ")"));
  }
}
