package io.tributary.connectors.json;

/** Input that is not one well-formed JSON object; readers turn it into {@code SplitOutput.malformed}. */
public class MalformedRecordException extends Exception {
  public MalformedRecordException(String reason) {
    super(reason);
  }

  public MalformedRecordException(String reason, Throwable cause) {
    super(reason, cause);
  }
}
