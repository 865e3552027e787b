package io.tributary.scheduler.observe;

/** A subscription to a job's live output; {@link #close()} ends it (idempotent, any thread). */
public interface OutputSubscription extends AutoCloseable {
  @Override
  void close();
}
