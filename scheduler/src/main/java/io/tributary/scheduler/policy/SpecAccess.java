package io.tributary.scheduler.policy;

import io.tributary.connect.AccessRefusedException;
import io.tributary.scheduler.spec.InvalidSpecException;
import io.tributary.scheduler.spec.JobSpec;
import io.tributary.scheduler.spec.SinkSpec;
import io.tributary.scheduler.spec.SourceSpec;
import io.tributary.scheduler.spec.SpecError;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Checks what a valid spec of a project reaches against the {@link TenantPolicy}: file paths
 * (resolved into the project's directories, symbolic links followed) and Kafka endpoints. Returns
 * the spec with every file path replaced by the absolute path it was judged as, which is what the
 * plan hands to the connectors (they check it again as they open it).
 */
public final class SpecAccess {
  private SpecAccess() {}

  /**
   * The spec with absolute file paths.
   *
   * @throws InvalidSpecException with the pointer of every path or endpoint the policy refuses
   */
  public static JobSpec resolve(TenantPolicy policy, String project, JobSpec spec) {
    List<SpecError> errors = new ArrayList<>();
    Map<String, SourceSpec> sources = new LinkedHashMap<>();
    for (SourceSpec s : spec.sources().values()) {
      String at = "/sources/" + escape(s.id());
      Map<String, Object> p = properties(policy, project, at, s.type(), s.properties(), errors);
      sources.put(s.id(), new SourceSpec(s.id(), s.type(), s.format(), s.eventTime(), s.maxRecordsPerSecond(),
          s.deadLetterOutput(), p));
    }
    Map<String, SinkSpec> sinks = new LinkedHashMap<>();
    for (SinkSpec s : spec.sinks().values()) {
      String at = "/sinks/" + escape(s.id());
      sinks.put(s.id(), new SinkSpec(s.id(), s.input(), s.type(), s.format(),
          properties(policy, project, at, s.type(), s.properties(), errors)));
    }
    if (!errors.isEmpty()) {
      throw new InvalidSpecException(errors);
    }
    return spec.withConnectors(sources, sinks);
  }

  private static Map<String, Object> properties(TenantPolicy policy, String project, String at, String type,
      Map<String, Object> properties, List<SpecError> errors) {
    Map<String, Object> out = new LinkedHashMap<>(properties);
    if ("file".equals(type) && properties.get("path") instanceof String raw) {
      try {
        Path resolved = policy.files().resolve(project, raw);
        out.put("path", resolved.toString());
      } catch (AccessRefusedException e) {
        errors.add(new SpecError(at + "/path", e.getMessage()));
      }
    }
    if ("kafka".equals(type) && properties.get("bootstrapServers") instanceof String servers) {
      for (String why : policy.endpoints().refusals(servers)) {
        errors.add(new SpecError(at + "/bootstrapServers", why));
      }
    }
    return out;
  }

  private static String escape(String id) {
    return id.replace("~", "~0").replace("/", "~1");
  }
}
