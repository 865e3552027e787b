package io.tributary.state.forst.rocks;

/**
 * A failure of the RocksDB state backend: a native RocksDB error, a codec failure or an I/O error
 * of the local disk or the object store. Retrying the task (restoring from the last checkpoint) may
 * help when the cause is external (disk full, object store unavailable).
 */
public final class ForstStateException extends RuntimeException {
  ForstStateException(String message, Throwable cause) {
    super(message + ": " + cause.getMessage(), cause);
  }

  ForstStateException(String message) {
    super(message);
  }
}
