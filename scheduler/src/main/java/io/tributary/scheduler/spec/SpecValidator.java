package io.tributary.scheduler.spec;

import io.tributary.scheduler.spec.internal.Pointers;
import io.tributary.state.KeyGroups;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Checks what {@link SpecParser} cannot see field by field: the job name, parallelism bounds, one
 * namespace for sources, operators, sinks and side outputs, input references, cycles, each
 * operator's parts and expressions ({@link OperatorValidator}), each sink's delivery settings
 * ({@link SinkValidator}) and where upsert streams go ({@link ChangelogValidator}). Null parts
 * (left by shape errors) are skipped, so a partly wrong spec can be validated too and every error
 * reported at once.
 */
public final class SpecValidator {
  private static final Pattern DNS_LABEL = Pattern.compile("^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$");

  private SpecValidator() {}

  /** Every problem found, empty if none. */
  public static List<SpecError> validate(JobSpec spec) {
    List<SpecError> errors = new ArrayList<>();
    name(spec, errors);
    parallelism(spec, errors);
    if (spec.sources().isEmpty()) {
      errors.add(new SpecError("/sources", "declare at least one source"));
    }
    if (spec.sinks().isEmpty()) {
      errors.add(new SpecError("/sinks", "declare at least one sink"));
    }
    if (!SpecLimits.job(spec, errors)) {
      return errors;
    }
    namespace(spec, errors);
    GraphValidator.check(spec, errors);
    for (int i = 0; i < spec.operators().size(); i++) {
      OperatorValidator.check(spec.operators().get(i), "/operators/" + i, errors);
    }
    SpecGraph graph = SpecGraph.of(spec);
    for (SinkSpec sink : spec.sinks().values()) {
      SinkValidator.check(sink, graph.upsertKey(sink.input()) != null, errors);
    }
    ChangelogValidator.check(spec, errors);
    return errors;
  }

  /**
   * Returns {@code spec} if it is valid.
   *
   * @throws InvalidSpecException with every problem
   */
  public static JobSpec check(JobSpec spec) {
    List<SpecError> errors = validate(spec);
    if (!errors.isEmpty()) {
      throw new InvalidSpecException(errors);
    }
    return spec;
  }

  private static void name(JobSpec spec, List<SpecError> errors) {
    if (spec.name() != null && !DNS_LABEL.matcher(spec.name()).matches()) {
      errors.add(new SpecError("/name", "'" + spec.name() + "' is not a DNS label: use at most 63 lower-case"
          + " letters, digits and '-', starting and ending with a letter or digit"));
    }
  }

  private static void parallelism(JobSpec spec, List<SpecError> errors) {
    ParallelismSpec p = spec.parallelism();
    boolean pinned = p.min() == p.initial() && p.max() == p.initial();
    String at = "/parallelism";
    if (p.min() < 1) {
      errors.add(new SpecError(pinned ? at : at + "/min", "must be at least 1"));
      return;
    }
    if (p.initial() < p.min()) {
      errors.add(new SpecError(at + "/initial", "must not be below min (" + p.min() + ")"));
    }
    if (p.max() < p.initial()) {
      errors.add(new SpecError(at + "/max", "must not be below initial (" + p.initial() + ")"));
    }
    Integer m = spec.maxParallelism();
    int bound = KeyGroups.UPPER_BOUND_MAX_PARALLELISM;
    if (m != null && (m < 1 || m > bound)) {
      errors.add(new SpecError("/maxParallelism", "must be between 1 and " + bound));
    } else if (p.max() > (m == null ? bound : m)) {
      String limit = m == null ? String.valueOf(bound) : "maxParallelism (" + m + ")";
      errors.add(new SpecError(pinned ? at : at + "/max", "must not exceed " + limit));
    }
  }

  private static void namespace(JobSpec spec, List<SpecError> errors) {
    Map<String, String> seen = new LinkedHashMap<>();
    for (SourceSpec s : spec.sources().values()) {
      String at = Pointers.child("/sources", s.id());
      declare(s.id(), at, seen, errors);
      declare(s.deadLetterOutput(), at + "/deadLetterOutput", seen, errors);
    }
    for (int i = 0; i < spec.operators().size(); i++) {
      OperatorSpec op = spec.operators().get(i);
      if (op != null) {
        declare(op.id(), "/operators/" + i + "/id", seen, errors);
        declare(op.window() == null ? null : op.window().lateOutput(), "/operators/" + i + "/window/lateOutput", seen, errors);
      }
    }
    for (SinkSpec s : spec.sinks().values()) {
      declare(s.id(), Pointers.child("/sinks", s.id()), seen, errors);
    }
  }

  private static void declare(String name, String at, Map<String, String> seen, List<SpecError> errors) {
    if (name == null) {
      return;
    }
    String first = seen.putIfAbsent(name, at);
    if (first != null) {
      errors.add(new SpecError(at, "'" + name + "' is already declared at " + first
          + "; sources, operators, sinks and side outputs share one namespace"));
    }
  }
}
