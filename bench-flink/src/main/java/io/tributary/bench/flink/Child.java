package io.tributary.bench.flink;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A run in a JVM of its own: {@code java <options> -cp <classpath> <main> <args>}, whose standard
 * output ends with the line {@code result wall=<s> cpu=<s> results=<n>} ({@code QueryRun} of the
 * bench module, {@link FlinkRun}); its standard error is this process's.
 */
final class Child {
  private static final Pattern RESULT = Pattern.compile("result wall=([0-9.]+) cpu=([0-9.]+) results=(\\d+)");

  /** JVM options Flink's own scripts pass on Java 17 (its serializers reflect into the JDK). */
  static final List<String> FLINK_JVM_OPTIONS = List.of(
      "--add-exports=java.base/sun.net.util=ALL-UNNAMED",
      "--add-opens=java.base/java.lang=ALL-UNNAMED", "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
      "--add-opens=java.base/java.net=ALL-UNNAMED", "--add-opens=java.base/java.io=ALL-UNNAMED",
      "--add-opens=java.base/java.nio=ALL-UNNAMED", "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
      "--add-opens=java.base/java.text=ALL-UNNAMED", "--add-opens=java.base/java.time=ALL-UNNAMED",
      "--add-opens=java.base/java.util=ALL-UNNAMED", "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
      "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED",
      "--add-opens=java.base/java.util.concurrent.locks=ALL-UNNAMED",
      "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "-Dorg.slf4j.simpleLogger.log.org.apache.flink=error");

  private Child() {}

  /** What a run measured. */
  record Figures(double wallSeconds, double cpuSeconds, long results) {}

  /** Runs {@code main} with {@code args} in a new JVM and returns its figures. */
  static Figures run(List<String> jvmOptions, String classpath, String main, List<String> args)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(System.getProperty("java.home") + "/bin/java");
    command.addAll(jvmOptions);
    command.add("-cp");
    command.add(classpath);
    command.add(main);
    command.addAll(args);
    Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    Figures figures = null;
    try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = out.readLine(); line != null; line = out.readLine()) {
        Matcher m = RESULT.matcher(line);
        if (m.matches()) {
          figures = new Figures(Double.parseDouble(m.group(1)), Double.parseDouble(m.group(2)),
              Long.parseLong(m.group(3)));
        }
      }
    }
    int exit = p.waitFor();
    if (exit != 0 || figures == null) {
      throw new IllegalStateException(main + " " + String.join(" ", args) + " failed (exit " + exit + ")");
    }
    return figures;
  }
}
