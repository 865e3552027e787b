package io.tributary.protocol;

/** Where a {@link WorkerPool} delivers the reports of an attempt. Called from any thread. */
@FunctionalInterface
public interface WorkerReports {
  void report(WorkerReport report);
}
