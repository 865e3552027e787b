package io.tributary.scheduler.master;

import io.tributary.protocol.Failure;
import io.tributary.protocol.WorkerException;
import io.tributary.scheduler.metadata.FencedException;
import io.tributary.scheduler.placement.IncompatibleRestoreException;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Classifies what the control plane itself ran into while running a job: a worker's verdict
 * ({@link WorkerException}) stands; a newer run (or leader) that fenced this one is final; a checkpoint that
 * cannot be restored is the user's; I/O trouble is external and retryable; anything else is
 * internal and retryable.
 */
public final class Failures {
  private Failures() {}

  public static Failure classify(Throwable e) {
    String message = e.getMessage() != null ? e.getMessage() : e.toString();
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof FencedException || t instanceof io.tributary.scheduler.metadata.LeaseLostException) {
        return new Failure(Failure.Domain.INTERNAL, false, message);
      }
    }
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof WorkerException w) {
        return new Failure(w.failure().domain(), w.failure().retryable(), message);
      }
      if (t instanceof IncompatibleRestoreException) {
        return Failure.user(message);
      }
    }
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof IOException || t instanceof UncheckedIOException) {
        return new Failure(Failure.Domain.EXTERNAL, true, message);
      }
    }
    return new Failure(Failure.Domain.INTERNAL, true, message);
  }
}
