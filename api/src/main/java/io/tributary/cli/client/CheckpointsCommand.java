package io.tributary.cli.client;

import io.tributary.client.ApiException;
import io.tributary.client.model.Checkpoint;
import io.tributary.client.model.CheckpointList;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code tributary checkpoints NAME}: the job's retained checkpoints, newest first, with their
 * figures; JSON and YAML print the API's page.
 */
@Command(name = "checkpoints", mixinStandardHelpOptions = true,
    description = "List a job's retained checkpoints on the server, newest first: duration, alignment, size, "
        + "bytes uploaded.")
public final class CheckpointsCommand extends ClientCommand {
  @Parameters(index = "0", paramLabel = "NAME", description = "the job")
  String name;

  @Option(names = "--limit", paramLabel = "N", defaultValue = "20",
      description = "how many of the latest checkpoints (default: ${DEFAULT-VALUE}, at most 100)")
  int limit;

  @Override
  int run(ServerConnection server, Output out) throws ApiException {
    if (limit < 1 || limit > 100) {
      throw new CliFailure(ExitCodes.INVALID, "--limit must be between 1 and 100, not " + limit);
    }
    CheckpointList page = server.checkpoints.listCheckpoints(server.project(), name, limit, null);
    page.setNextPageToken(null);
    List<Checkpoint> all = page.getItems() == null ? List.of() : page.getItems();
    out.print(page, () -> {
      if (all.isEmpty()) {
        out.message("job " + name + " has no checkpoints yet");
        return;
      }
      Instant now = Instant.now();
      Table t = new Table("ID", "STATUS", "AGE", "DURATION", "ALIGNMENT", "SIZE", "INCREMENTAL", "UPLOADED",
          "PARALLELISM", "NOTE");
      for (Checkpoint c : all) {
        t.row(String.valueOf(c.getId()), c.getStatus() == null ? "-" : c.getStatus().getValue(),
            Human.age(c.getTriggeredAt(), now), millis(c.getDurationMillis()), millis(c.getAlignmentMillis()),
            Human.bytes(c.getSizeBytes()), Human.bytes(c.getIncrementalSizeBytes()), Human.bytes(c.getUploadedBytes()),
            c.getParallelism() == null ? "-" : String.valueOf(c.getParallelism()), note(c));
      }
      out.table(t);
    });
    return ExitCodes.OK;
  }

  private static String millis(Long ms) {
    return ms == null ? "-" : Human.duration(Duration.ofMillis(ms));
  }

  /** Why it failed, or the in-flight records an unaligned checkpoint stored. */
  private static String note(Checkpoint c) {
    if (c.getFailureReason() != null) {
      return c.getFailureReason().replaceAll("\\s*\\R\\s*", " ");
    }
    if (c.getInFlightRecords() != null && c.getInFlightRecords() > 0) {
      return String.format(Locale.ROOT, "unaligned: %,d records in flight (%s)", c.getInFlightRecords(),
          Human.bytes(c.getInFlightBytes()));
    }
    return "";
  }
}
