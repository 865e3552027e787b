package io.tributary.cli.client;

/**
 * The exit codes of the commands that talk to a server. Scripts may rely on them:
 *
 * <ul>
 *   <li>{@link #OK} 0: done;
 *   <li>{@link #OTHER} 1: the server could not be reached, answered with an unexpected error, or a
 *       waited-for job failed or did not get there in time;
 *   <li>{@link #INVALID} 2: the input is wrong (HTTP 400, 413, 422, or a file that cannot be read);
 *   <li>{@link #NOT_FOUND} 3: no such project, job or savepoint (404);
 *   <li>{@link #CONFLICT} 4: the job's state does not allow it, or it changed meanwhile (409, 412);
 *   <li>{@link #AUTH} 5: no valid token, or one without the rights for this (401, 403).
 * </ul>
 */
public final class ExitCodes {
  public static final int OK = 0;
  public static final int OTHER = 1;
  public static final int INVALID = 2;
  public static final int NOT_FOUND = 3;
  public static final int CONFLICT = 4;
  public static final int AUTH = 5;

  private ExitCodes() {}

  /** The exit code for an HTTP error status. */
  public static int forStatus(int status) {
    switch (status) {
      case 400: case 413: case 422:
        return INVALID;
      case 404:
        return NOT_FOUND;
      case 409: case 412:
        return CONFLICT;
      case 401: case 403:
        return AUTH;
      default:
        return OTHER;
    }
  }
}
