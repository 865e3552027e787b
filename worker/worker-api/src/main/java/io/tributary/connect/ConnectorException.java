package io.tributary.connect;

/**
 * A connector failed: bad configuration (the user's to fix) or an external system (Kafka, a file
 * system) misbehaving. The message says what to fix.
 */
public class ConnectorException extends RuntimeException {
  public ConnectorException(String message) {
    super(message);
  }

  public ConnectorException(String message, Throwable cause) {
    super(message, cause);
  }
}
