package io.tributary.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** {@code tributary run|validate job.sql}: SQL jobs offline, and their errors as one line each. */
class SqlCliTest {
  @TempDir
  Path tmp;

  @RegisterExtension
  final StdStreams std = new StdStreams();

  private Path clicks() throws Exception {
    Path input = tmp.resolve("in.jsonl");
    Files.writeString(input, """
        {"k": "a", "ms": 30, "ts": 1000}
        {"k": "b", "ms": 5, "ts": 1500}
        not json
        {"k": "a", "ms": 40, "ts": 2500}
        {"k": "a", "ms": 50, "ts": 1900}
        """);
    return input;
  }

  private Path job(String name, String sql) throws Exception {
    Path file = tmp.resolve(name);
    Files.writeString(file, sql);
    return file;
  }

  private String slowClicks(Path input) {
    return """
        CREATE TABLE clicks (k VARCHAR, ms BIGINT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND)
          WITH ('connector' = 'file', 'path' = '%s');
        CREATE TABLE counts (k VARCHAR, window_end TIMESTAMP(3), n BIGINT, slowest BIGINT)
          WITH ('connector' = 'file', 'path' = '%s');
        INSERT INTO counts
        SELECT k, window_end, COUNT(*), MAX(ms)
        FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '2' SECOND))
        WHERE ms >= 20
        GROUP BY k, window_start, window_end;
        """.formatted(input, tmp.resolve("out"));
  }

  @Test
  void runRunsASqlJobToTheEndAndCommitsItsRows() throws Exception {
    Path file = job("slow_clicks.sql", slowClicks(clicks()));

    int code = Main.execute("run", file.toString(), "--progress-interval", "0");

    assertThat(code).as(std.err()).isZero();
    assertThat(std.err()).contains("running slow-clicks").contains("malformed 1").contains("finished");
    assertThat(Pipelines.committed(tmp.resolve("out"))).containsExactly(
        "{\"k\":\"a\",\"window_end\":2000,\"n\":2,\"slowest\":50}",
        "{\"k\":\"a\",\"window_end\":4000,\"n\":1,\"slowest\":40}");
  }

  @Test
  void validatePrintsThePlanOfTheSpecTheJobCompilesTo() throws Exception {
    Path file = job("slow.sql", "SET 'parallelism' = '3';\n" + slowClicks(clicks()));

    int code = Main.execute("validate", file.toString());

    assertThat(code).as(std.err()).isZero();
    assertThat(std.out()).startsWith("job slow:").contains("hash by [k]").contains("x3").contains("sink counts");
  }

  @Test
  void everyErrorIsOneLineWithTheFileLineAndColumn() throws Exception {
    Path file = job("bad.sql", slowClicks(clicks()).replace("MAX(ms)", "MAX(msec)"));

    assertThat(Main.execute("run", file.toString())).isEqualTo(2);
    assertThat(std.err().strip()).isEqualTo("tributary: " + file + ": line 6, column 37: Column 'msec' not found in "
        + "any table");

    std.reset();
    Files.writeString(file, slowClicks(clicks()).replace("'path'", "'pth'"));
    assertThat(Main.execute("validate", file.toString())).isEqualTo(2);
    assertThat(std.err().strip().lines()).containsExactly(
        "tributary: " + file + ": line 1, column 14: table 'clicks', option 'path': is required for this type",
        file + ": line 2, column 31: table 'clicks', option 'pth': unknown option 'pth'; did you mean 'path'?",
        file + ": line 3, column 14: table 'counts', option 'path': is required for this type",
        file + ": line 4, column 31: table 'counts', option 'pth': unknown option 'pth'; did you mean 'path'?");
  }
}
