package io.tributary.cli.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.client.ApiException;
import java.net.ConnectException;
import org.junit.jupiter.api.Test;

/** Failed calls become one line and the exit code the README promises. */
class ProblemsTest {
  private static final String SERVER = "http://localhost:8080";

  @Test
  void statusesMapToExitCodes() {
    assertThat(ExitCodes.forStatus(400)).isEqualTo(2);
    assertThat(ExitCodes.forStatus(422)).isEqualTo(2);
    assertThat(ExitCodes.forStatus(413)).isEqualTo(2);
    assertThat(ExitCodes.forStatus(404)).isEqualTo(3);
    assertThat(ExitCodes.forStatus(409)).isEqualTo(4);
    assertThat(ExitCodes.forStatus(412)).isEqualTo(4);
    assertThat(ExitCodes.forStatus(401)).isEqualTo(5);
    assertThat(ExitCodes.forStatus(403)).isEqualTo(5);
    assertThat(ExitCodes.forStatus(500)).isEqualTo(1);
    assertThat(ExitCodes.forStatus(503)).isEqualTo(1);
  }

  @Test
  void aValidationProblemListsEveryFieldOnOneLineWithPointersIntoTheFile() {
    String body = """
        {"type": "urn:tributary:problem:invalid-spec", "title": "Invalid job spec", "status": 422,
         "detail": "the spec has 2 errors", "domain": "USER", "retryable": false,
         "errors": [{"pointer": "/spec/operators/1/window/size", "message": "is required for a tumbling window"},
                    {"pointer": "/spec/sinks/results/input",
                     "message": "'per-usr' is not declared;\\ndid you mean 'per-user'?"}]}
        """;
    CliFailure f = Problems.describe(new ApiException(422, "x", null, body), SERVER, "/spec", true);
    assertThat(f.exitCode()).isEqualTo(2);
    assertThat(f.getMessage()).isEqualTo("the spec has 2 errors: "
        + "/operators/1/window/size: is required for a tumbling window; "
        + "/sinks/results/input: 'per-usr' is not declared; did you mean 'per-user'?");
  }

  @Test
  void aSingleFieldErrorIsSaidOnceWithItsPointerIntoTheFile() {
    String body = """
        {"type": "urn:tributary:problem:invalid-spec", "title": "Invalid job spec", "status": 400,
         "detail": "/spec/sinks/out/path: '/etc/x' is outside this project's file directories",
         "errors": [{"pointer": "/spec/sinks/out/path", "message": "'/etc/x' is outside this project's file directories"}]}
        """;
    CliFailure f = Problems.describe(new ApiException(400, "x", null, body), SERVER, "/spec", true);
    assertThat(f.exitCode()).isEqualTo(2);
    assertThat(f.getMessage()).isEqualTo("/sinks/out/path: '/etc/x' is outside this project's file directories");
    String parameter = """
        {"type": "urn:tributary:problem:invalid-request", "title": "Invalid request", "status": 400,
         "detail": "pageToken: not a page token of this list: x",
         "errors": [{"pointer": "/pageToken", "message": "not a page token of this list: x"}]}
        """;
    assertThat(Problems.describe(new ApiException(400, "x", null, parameter), SERVER, "", true).getMessage())
        .isEqualTo("/pageToken: not a page token of this list: x");
  }

  @Test
  void errorsInASqlJobAreLedByItsFileAsOffline() {
    String body = """
        {"type": "urn:tributary:problem:invalid-spec", "title": "Invalid job spec", "status": 400,
         "detail": "the SQL job has 2 errors",
         "errors": [{"pointer": "/sql", "line": 13, "column": 33, "message": "Column 'prise' not found in any table"},
                    {"pointer": "/sql", "line": 14, "column": 1, "message": "syntax error"}]}
        """;
    assertThat(Problems.describe(new ApiException(400, "x", null, body), SERVER, "/sql", true, "q1.sql").getMessage())
        .isEqualTo("q1.sql: line 13, column 33: Column 'prise' not found in any table; line 14, column 1: syntax error");
    assertThat(Problems.describe(new ApiException(400, "x", null, body), SERVER, "/sql", true).getMessage())
        .startsWith("line 13, column 33: ");
  }

  @Test
  void pointersOutsideThePrefixStayAsTheyAre() {
    assertThat(Problems.pointer("/spec", "/spec")).isEqualTo("/");
    assertThat(Problems.pointer("/specimen", "/spec")).isEqualTo("/specimen");
    assertThat(Problems.pointer("/parallelism", "")).isEqualTo("/parallelism");
    assertThat(Problems.pointer("", "")).isEqualTo("/");
  }

  @Test
  void aMissingTokenGetsAHint() {
    String body = "{\"type\": \"urn:tributary:problem:unauthorized\", \"title\": \"Unauthorized\", \"status\": 401, "
        + "\"detail\": \"a bearer token is required\"}";
    CliFailure f = Problems.describe(new ApiException(401, "x", null, body), SERVER, "", false);
    assertThat(f.exitCode()).isEqualTo(5);
    assertThat(f.getMessage()).isEqualTo("a bearer token is required (set TRIBUTARY_TOKEN or pass --token)");
  }

  @Test
  void anAnswerThatIsNotAProblemSaysTheStatus() {
    CliFailure f = Problems.describe(new ApiException(502, "x", null, "<html>Bad gateway</html>"), SERVER, "", true);
    assertThat(f.exitCode()).isEqualTo(1);
    assertThat(f.getMessage()).isEqualTo("the server answered HTTP 502");
  }

  @Test
  void aRefusedConnectionSaysSo() {
    CliFailure f = Problems.describe(new ApiException(new ConnectException()), SERVER, "", true);
    assertThat(f.exitCode()).isEqualTo(1);
    assertThat(f.getMessage()).isEqualTo("cannot reach the server at http://localhost:8080: connection refused");
  }

  @Test
  void anAnswerTheClientCannotReadIsNotCalledUnreachable() {
    var bad = new com.fasterxml.jackson.core.JsonParseException(null, "Unexpected value 'updating'");
    CliFailure f = Problems.describe(new ApiException(bad), SERVER, "", true);
    assertThat(f.exitCode()).isEqualTo(1);
    assertThat(f.getMessage())
        .isEqualTo("cannot read the answer of the server at http://localhost:8080: Unexpected value 'updating'");
  }
}
