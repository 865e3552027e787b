package io.tributary.cli.client;

import java.time.Duration;
import picocli.CommandLine.Option;

/** {@code --wait} and {@code --timeout} of the commands that change a job. */
final class WaitOptions {
  @Option(names = "--wait", description = "wait until the job got there; exit 1 if it fails or --timeout passes")
  boolean await;

  @Option(names = "--timeout", paramLabel = "DURATION", defaultValue = "2m", converter = DurationOption.class,
      description = "how long --wait waits (default: ${DEFAULT-VALUE})")
  Duration timeout = Duration.ofMinutes(2);

  JobWaiter waiter(ServerConnection server) {
    return new JobWaiter(server, timeout);
  }
}
