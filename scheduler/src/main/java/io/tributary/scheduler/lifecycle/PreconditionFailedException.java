package io.tributary.scheduler.lifecycle;

import io.tributary.protocol.Failure;

/**
 * An {@code If-Match} precondition failed (412): the job changed (or was created or deleted) since
 * the caller read the version it names. Re-read the job, decide again, and send the new version.
 */
public final class PreconditionFailedException extends ControlException {
  private static final long serialVersionUID = 1L;

  private final long expected;
  private final long actual;

  /**
   * @param expected the version the caller named; 0 for "must not exist"
   * @param actual the current version; 0 if the job does not exist
   */
  public PreconditionFailedException(String what, long expected, long actual) {
    super(what + ": If-Match names " + describe(expected) + " but it is at " + describe(actual),
        Failure.Domain.USER, false, null);
    this.expected = expected;
    this.actual = actual;
  }

  public long expectedVersion() {
    return expected;
  }

  /** The current version, 0 if the job does not exist. */
  public long actualVersion() {
    return actual;
  }

  private static String describe(long version) {
    return version == 0 ? "no job" : "version " + version;
  }
}
