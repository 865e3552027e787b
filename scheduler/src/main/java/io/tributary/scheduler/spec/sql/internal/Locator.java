package io.tributary.scheduler.spec.sql.internal;

import io.tributary.scheduler.spec.SpecError;
import java.util.Map;
import java.util.TreeMap;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * Where each part of a compiled spec comes from in the job's SQL text, so that an error the spec's
 * checks find (an option of the wrong type, a file outside the project's directories) is reported
 * at the line and column of what the user wrote.
 */
public final class Locator {
  private record Place(SqlParserPos pos, String context, String parts) {}

  private final Map<String, Place> places = new TreeMap<>();

  /** Records that the spec's part at {@code pointer} comes from {@code pos}, described as {@code context}. */
  void put(String pointer, SqlParserPos pos, String context) {
    put(pointer, pos, context, null);
  }

  /**
   * Like {@link #put(String, SqlParserPos, String)}; the fields below {@code pointer} are {@code
   * parts} (such as "option") in messages.
   */
  void put(String pointer, SqlParserPos pos, String context, String parts) {
    places.put(pointer, new Place(pos, context, parts));
  }

  /**
   * {@code e} at the position of the longest pointer recorded that is {@code e}'s pointer or one
   * of its parents, its message prefixed with what is there; line 1, column 1 when none is.
   */
  public SpecError locate(SpecError e) {
    if (e.positioned()) {
      return e;
    }
    String pointer = e.pointer();
    String at = pointer;
    while (!at.isEmpty() && !places.containsKey(at)) {
      at = at.substring(0, at.lastIndexOf('/'));
    }
    Place place = places.get(at);
    String message = e.message().replace("unknown field", "unknown option").replace("known fields", "known options");
    if (place == null) {
      return SqlProblem.error(null, (pointer.isEmpty() ? "" : pointer + ": ") + message);
    }
    String rest = pointer.substring(at.length());
    String field = rest.isEmpty() ? "" : rest.substring(1).replace('/', '.').replace("~1", "/").replace("~0", "~");
    String what = rest.isEmpty() ? place.context()
        : place.context() + ", " + (place.parts() == null ? "" : place.parts() + " ") + "'" + field + "'";
    return SqlProblem.error(place.pos(), what + ": " + message);
  }
}
