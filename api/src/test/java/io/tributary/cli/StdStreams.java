package io.tributary.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Captures {@code System.out} and {@code System.err} for each test and puts them back after it:
 * register with {@code @RegisterExtension final StdStreams std = new StdStreams();}.
 */
public final class StdStreams implements BeforeEachCallback, AfterEachCallback {
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private PrintStream oldErr;
  private PrintStream oldOut;

  @Override
  public void beforeEach(ExtensionContext context) {
    oldErr = System.err;
    oldOut = System.out;
    System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
  }

  @Override
  public void afterEach(ExtensionContext context) {
    System.setErr(oldErr);
    System.setOut(oldOut);
  }

  /** What the test wrote to standard error so far, lines ending in {@code \n}. */
  public String err() {
    return err.toString(StandardCharsets.UTF_8).replace(System.lineSeparator(), "\n");
  }

  /** Forgets what was captured so far. */
  public void reset() {
    err.reset();
    out.reset();
  }

  /** What the test wrote to standard output so far. */
  public String out() {
    return out.toString(StandardCharsets.UTF_8);
  }
}
