package io.tributary.scheduler.spec;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** Test fixtures: spec texts, and the errors a text produces. */
public final class SpecTexts {
  private SpecTexts() {}

  /** The text of {@code src/test/resources/specs/<name>}. */
  public static String resource(String name) {
    try (InputStream in = SpecTexts.class.getResourceAsStream("/specs/" + name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A minimal valid job around {@code operatorsAndSinks} (YAML lines for operators and sinks). */
  public static String job(String operatorsAndSinks) {
    return """
        name: job
        sources:
          src: {type: datagen, eventTime: {field: ts}}
        """ + operatorsAndSinks;
  }

  /** Every shape and semantic error of {@code text} (empty if valid). */
  public static List<SpecError> errors(String text) {
    try {
      JobSpecs.parse(text);
      return List.of();
    } catch (InvalidSpecException e) {
      return e.errors();
    }
  }

  /** Shape errors only (no expressions involved). */
  public static List<SpecError> shapeErrors(String text) {
    return SpecParser.read(text).errors();
  }
}
