package io.tributary.cli.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.cli.Main;
import io.tributary.cli.StdStreams;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The client commands' failures that need no server: one line, the right exit code, no stack trace. */
class ClientCommandsTest {
  @RegisterExtension
  final StdStreams std = new StdStreams();

  @Test
  void aServerThatIsDownIsOneLineAndExitCode1() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    String url = "http://localhost:" + port;
    int code = Main.execute("get", "clicks", "--server", url, "--token", "t");
    assertThat(code).isEqualTo(1);
    assertThat(std.err()).isEqualTo("tributary: cannot reach the server at " + url + ": connection refused\n");
  }

  @Test
  void aServerThatIsNotAUrlIsInvalidInput() {
    assertThat(Main.execute("list", "--server", "localhost:8080")).isEqualTo(2);
    assertThat(std.err())
        .isEqualTo("tributary: the server must be an http(s) URL such as http://localhost:8080, not 'localhost:8080'\n");
  }

  @Test
  void resumeFromASavepointNeedsItsId() {
    assertThat(Main.execute("resume", "clicks", "--from", "savepoint", "--server", "http://localhost:1")).isEqualTo(2);
    assertThat(std.err()).startsWith("tributary: --from savepoint needs --savepoint-id");
  }

  @Test
  void applyOfAMissingFileIsInvalidInput() {
    assertThat(Main.execute("apply", "-f", "no/such/job.yaml", "--server", "http://localhost:1")).isEqualTo(2);
    assertThat(std.err()).isEqualTo("tributary: no such file: no/such/job.yaml\n");
  }

  @Test
  void validateStaysOfflineWithoutAServerAndTakesTheFileAsAnOption() {
    int code = Main.execute("validate", "-f", "../examples/clicks-per-user.yaml", "-p", "3");
    assertThat(code).as(std.err()).isZero();
    assertThat(std.out()).contains("hash by [user]").contains("key groups");
  }

  @Test
  void validateNeedsExactlyOneFile() {
    assertThat(Main.execute("validate")).isEqualTo(2);
    assertThat(std.err()).contains("name one spec file: SPEC or -f FILE");
  }
}
