package io.tributary.spec;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Parse and validate in one call, reporting shape and semantic errors together. */
public final class JobSpecs {
  private JobSpecs() {}

  /**
   * The valid spec written in {@code text} (YAML or JSON).
   *
   * @throws InvalidSpecException with every error found
   */
  public static JobSpec parse(String text) {
    SpecParser.Result result = SpecParser.read(text);
    List<SpecError> errors = new ArrayList<>(result.errors());
    if (result.spec() != null) {
      errors.addAll(SpecValidator.validate(result.spec()));
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
