package io.tributary.scheduler.spec;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/** Parse and validate in one call, reporting shape and semantic errors together. */
public final class JobSpecs {
  private JobSpecs() {}

  /**
   * The valid spec written in {@code text} (YAML or JSON).
   *
   * @throws InvalidSpecException with every error found
   */
  public static JobSpec parse(String text) {
    if (text != null && text.length() <= MEMO_MAX_CHARS) {
      JobSpec known;
      synchronized (MEMO) {
        known = MEMO.get(text);
      }
      if (known != null) {
        return known;
      }
    }
    JobSpec spec = parseUncached(text);
    if (text != null && text.length() <= MEMO_MAX_CHARS) {
      synchronized (MEMO) {
        MEMO.put(text, spec);
      }
    }
    return spec;
  }

  /**
   * Valid specs recently parsed, by their text: a control plane parses the same stored texts over
   * and over (every read of a job, every idempotent apply), and parsing validates every expression.
   * Specs are immutable, so sharing them is safe.
   */
  private static final int MEMO_MAX_CHARS = 64 * 1024;
  private static final Map<String, JobSpec> MEMO = new LinkedHashMap<>(256, 0.75f, true) {
    private static final long serialVersionUID = 1L;

    @Override
    protected boolean removeEldestEntry(Map.Entry<String, JobSpec> eldest) {
      return size() > 2048;
    }
  };

  private static JobSpec parseUncached(String text) {
    return SpecBudget.within(SpecBudget.DEFAULT, () -> parseUnbudgeted(text));
  }

  private static JobSpec parseUnbudgeted(String text) {
    SpecParser.Result result = SpecParser.read(text);
    List<SpecError> errors = new ArrayList<>(result.errors());
    if (result.spec() != null) {
      // a field the parser found wrong (or missing) is reported once, not again by the validator
      Set<String> shapeErrors = errors.stream().map(SpecError::pointer).collect(Collectors.toSet());
      SpecValidator.validate(result.spec()).stream()
          .filter(e -> !shapeErrors.contains(e.pointer()))
          .forEach(errors::add);
    }
    if (!errors.isEmpty()) {
      throw new InvalidSpecException(errors);
    }
    return result.spec();
  }

  /**
   * The valid spec in the UTF-8 file {@code path}. Relative paths inside the spec are kept as written.
   *
   * @throws IOException if the file cannot be read
   * @throws InvalidSpecException with every error found
   */
  public static JobSpec load(Path path) throws IOException {
    return parse(Files.readString(path, StandardCharsets.UTF_8));
  }
}
