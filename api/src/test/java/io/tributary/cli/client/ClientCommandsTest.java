package io.tributary.cli.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.cli.Main;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The client commands' failures that need no server: one line, the right exit code, no stack trace. */
class ClientCommandsTest {
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private PrintStream oldErr;
  private PrintStream oldOut;

  @BeforeEach
  void capture() {
    oldErr = System.err;
    oldOut = System.out;
    System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
  }

  @AfterEach
  void restore() {
    System.setErr(oldErr);
    System.setOut(oldOut);
  }

  @Test
  void aServerThatIsDownIsOneLineAndExitCode1() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    String url = "http://localhost:" + port;
    int code = Main.execute("get", "clicks", "--server", url, "--token", "t");
    assertThat(code).isEqualTo(1);
    assertThat(err()).isEqualTo("error: cannot reach the server at " + url + ": connection refused\n");
  }

  @Test
  void aServerThatIsNotAUrlIsInvalidInput() {
    assertThat(Main.execute("list", "--server", "localhost:8080")).isEqualTo(2);
    assertThat(err())
        .isEqualTo("error: the server must be an http(s) URL such as http://localhost:8080, not 'localhost:8080'\n");
  }

  @Test
  void resumeFromASavepointNeedsItsId() {
    assertThat(Main.execute("resume", "clicks", "--from", "savepoint", "--server", "http://localhost:1")).isEqualTo(2);
    assertThat(err()).startsWith("error: --from savepoint needs --savepoint-id");
  }

  @Test
  void applyOfAMissingFileIsInvalidInput() {
    assertThat(Main.execute("apply", "-f", "no/such/job.yaml", "--server", "http://localhost:1")).isEqualTo(2);
    assertThat(err()).isEqualTo("error: no such file: no/such/job.yaml\n");
  }

  @Test
  void validateStaysOfflineWithoutAServerAndTakesTheFileAsAnOption() {
    int code = Main.execute("validate", "-f", "../examples/clicks-per-user.yaml", "-p", "3");
    assertThat(code).as(err()).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8)).contains("hash by [user]").contains("key groups");
  }

  @Test
  void validateNeedsExactlyOneFile() {
    assertThat(Main.execute("validate")).isEqualTo(2);
    assertThat(err()).contains("name one spec file: SPEC or -f FILE");
  }

  private String err() {
    return err.toString(StandardCharsets.UTF_8).replace(System.lineSeparator(), "\n");
  }
}
