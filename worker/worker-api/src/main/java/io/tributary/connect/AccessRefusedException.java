package io.tributary.connect;

/**
 * A connector was asked to reach something the server does not allow: a file outside the job's
 * project directory, a host or port outside the endpoint allow-list, or a client setting that is
 * not on the allow-list. Always the user's to fix and never retryable: restarting cannot help.
 */
public class AccessRefusedException extends ConnectorException {
  private static final long serialVersionUID = 1L;

  public AccessRefusedException(String message) {
    super(message);
  }
}
