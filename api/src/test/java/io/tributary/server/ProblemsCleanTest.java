package io.tributary.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/** Framework messages reach users as one readable line. */
class ProblemsCleanTest {
  @Test
  void aJsonSyntaxErrorSaysTheLineAndColumnNotTheSourceDescription() {
    JsonProcessingException e = catchThrowableOfType(JsonProcessingException.class,
        () -> new ObjectMapper().readTree("{\"spec\": {"));
    String line = Problems.clean(e.getMessage());
    assertThat(line).startsWith("Unexpected end-of-input: expected close marker for Object (start marker at line 1, column ")
        .endsWith(")").doesNotContain("Source").doesNotContain("\n");
  }

  @Test
  void javaTypesBecomeTheirSimpleNames() {
    assertThat(Problems.clean("Cannot deserialize value of type `java.lang.Integer` from String \"two\""))
        .isEqualTo("Cannot deserialize value of type `Integer` from String \"two\"");
  }
}
