package io.tributary.cli;

import io.tributary.connect.ConnectorException;
import io.tributary.expr.ExpressionException;
import io.tributary.scheduler.spec.InvalidSpecException;
import java.io.IOException;
import java.nio.file.NoSuchFileException;

/** Maps failures to one line for the user and an exit code; no stack traces. */
final class CliErrors {
  /** The job spec or the command line is wrong: the user's to fix. */
  static final int USAGE = 2;
  /** The job failed while running. */
  static final int FAILED = 1;

  private CliErrors() {}

  static String describe(Throwable e) {
    if (e instanceof InvalidSpecException ise) {
      return ise.getMessage();
    }
    if (e instanceof Jobs.InvalidSqlFileException sql) {
      return sql.getMessage();
    }
    if (e instanceof NoSuchFileException nsf) {
      return "no such file: " + nsf.getFile();
    }
    if (e instanceof IOException io) {
      return "cannot read: " + io.getMessage();
    }
    if (e instanceof io.tributary.scheduler.master.RunFailedException rf) {
      return "job failed: " + rf.getMessage();
    }
    if (e instanceof io.tributary.boot.StoreUnreachableException) {
      return e.getMessage();
    }
    if (e instanceof io.tributary.scheduler.metadata.MetadataStoreException) {
      return e.getMessage() + (e.getMessage().contains("in use") ? " (is another run using this checkpoint directory?)" : "");
    }
    if (e instanceof io.tributary.scheduler.lifecycle.InvalidRequestException ir) {
      return ir.getMessage(); // "<field>: <reason>"
    }
    if (e instanceof java.io.UncheckedIOException) {
      return e.getMessage();
    }
    if (e instanceof ConnectorException || e instanceof ExpressionException
        || e instanceof IllegalArgumentException) {
      return e.getMessage();
    }
    return "internal error (" + e.getClass().getSimpleName() + "): " + e.getMessage();
  }

  static int exitCode(Throwable e) {
    return e instanceof io.tributary.scheduler.master.RunFailedException ? FAILED : USAGE;
  }
}
