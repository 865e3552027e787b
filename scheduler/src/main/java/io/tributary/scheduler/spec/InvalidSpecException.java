package io.tributary.scheduler.spec;

import java.util.List;
import java.util.stream.Collectors;

/**
 * A job spec that cannot run, with every problem found (not just the first). A user error:
 * retrying the same spec does not help. The message lists one {@code pointer: message} line per
 * error.
 */
public class InvalidSpecException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final List<SpecError> errors;

  /** @param errors at least one error */
  public InvalidSpecException(List<SpecError> errors) {
    super(describe(errors));
    if (errors.isEmpty()) {
      throw new IllegalArgumentException("an invalid spec needs at least one error");
    }
    this.errors = List.copyOf(errors);
  }

  /** The errors, in document order as far as they were found in one pass. */
  public List<SpecError> errors() {
    return errors;
  }

  private static String describe(List<SpecError> errors) {
    String lines = errors.stream().map(SpecError::toString).collect(Collectors.joining("\n"));
    return "invalid job spec (" + errors.size() + (errors.size() == 1 ? " error" : " errors") + "):\n" + lines;
  }
}
