package io.tributary.boot;

import io.tributary.worker.remote.WorkerProcess;
import io.tributary.worker.task.ConnectorFactory;
import java.nio.file.Path;

/** Runs this process as a worker ({@code tributary worker}). */
public final class Workers {
  private Workers() {}

  /**
   * What a worker process needs.
   *
   * @param controlPlane {@code host:port} of the server's worker port
   * @param worker its id, unique in the pool
   * @param slots tasks it runs at once
   * @param cacheDir its local files (a cache)
   * @param bindHost the address its data port listens on
   * @param advertisedHost where other workers reach it
   * @param dataPort its data port (0: any free one)
   * @param clusterSecret what it proves to the server
   * @param reattachGrace how long it keeps running its tasks when its control stream ends, for the
   *     server that takes over (another replica, or the same server restarted) to follow them
   */
  public record Config(String controlPlane, String worker, int slots, Path cacheDir, String bindHost,
      String advertisedHost, int dataPort, String clusterSecret, java.time.Duration reattachGrace) {}

  /** How long a worker keeps its tasks running without a server unless told otherwise. */
  public static final java.time.Duration DEFAULT_REATTACH_GRACE = WorkerProcess.DEFAULT_REATTACH_GRACE;

  /** A running worker; {@link #awaitStop} blocks until it stops for good. */
  public interface Running extends AutoCloseable {
    String dataAddress();

    /** Waits until the worker stops (refused, or closed); returns why. */
    String awaitStop() throws InterruptedException;

    @Override
    void close();
  }

  /** Starts the worker with the built-in connectors. */
  public static Running start(Config c) {
    WorkerProcess w = WorkerProcess.start(new WorkerProcess.Config(c.controlPlane(), c.worker(), c.slots(),
        c.cacheDir(), c.bindHost(), c.advertisedHost(), c.dataPort(), c.clusterSecret(), ConnectorFactory::standard,
        c.reattachGrace()));
    return new Running() {
      @Override
      public String dataAddress() {
        return w.dataAddress();
      }

      @Override
      public String awaitStop() throws InterruptedException {
        return w.awaitStop();
      }

      @Override
      public void close() {
        w.close();
      }
    };
  }
}
