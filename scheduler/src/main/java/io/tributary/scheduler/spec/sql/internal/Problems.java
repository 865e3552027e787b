package io.tributary.scheduler.spec.sql.internal;

import io.tributary.scheduler.spec.InvalidSpecException;
import io.tributary.scheduler.spec.SpecError;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.calcite.sql.parser.SqlParserPos;

/** The problems of one compilation, in text order; the compilation stops after a step that found any. */
public final class Problems {
  private final List<SpecError> errors = new ArrayList<>();

  /** Adds a problem at {@code pos}. */
  public void add(SqlParserPos pos, String message) {
    errors.add(SqlProblem.error(pos, message));
  }

  public void add(SqlProblem p) {
    errors.add(p.toError());
  }

  public void add(SpecError e) {
    errors.add(e);
  }

  public boolean any() {
    return !errors.isEmpty();
  }

  /** Throws every problem found so far, if any. */
  public void throwIfAny() {
    if (!errors.isEmpty()) {
      List<SpecError> sorted = new ArrayList<>(errors);
      sorted.sort(Comparator.comparingInt(SpecError::line).thenComparingInt(SpecError::column));
      throw new InvalidSpecException(sorted);
    }
  }
}
