package io.tributary.cli.client;

/** A command cannot do what was asked: one line for the user, and the exit code. */
public final class CliFailure extends RuntimeException {
  private final int exitCode;

  public CliFailure(int exitCode, String message) {
    super(message, null, false, false);
    this.exitCode = exitCode;
  }

  public int exitCode() {
    return exitCode;
  }

  /** Prints {@code tributary: <message>} on stderr (after what stdout holds) and returns the exit code. */
  public int report() {
    System.out.flush();
    System.err.println("tributary: " + getMessage());
    return exitCode;
  }
}
