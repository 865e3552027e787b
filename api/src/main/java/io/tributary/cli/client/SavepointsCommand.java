package io.tributary.cli.client;

import io.tributary.client.ApiException;
import io.tributary.client.model.Savepoint;
import io.tributary.client.model.SavepointList;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code tributary savepoints NAME}: the job's savepoints, newest first; {@code --trigger} takes
 * one (and {@code --wait} waits until it completed); {@code --delete ID} deletes one.
 */
@Command(name = "savepoints", mixinStandardHelpOptions = true,
    description = "List a job's savepoints on the server, trigger one, or delete one.")
public final class SavepointsCommand extends ClientCommand {
  @Parameters(index = "0", paramLabel = "NAME", description = "the job")
  String name;

  @Option(names = "--trigger", description = "take a savepoint of the running job")
  boolean trigger;

  @Option(names = "--delete", paramLabel = "ID", description = "delete savepoint ID (as listed, e.g. sp-7) and its "
      + "directory; refused while the job would restore it")
  String delete;

  @Mixin
  WaitOptions waiting;

  @Override
  int run(ServerConnection server, Output out) throws ApiException {
    if (trigger && delete != null) {
      throw new CliFailure(ExitCodes.INVALID, "--trigger and --delete cannot be combined");
    }
    if (delete != null) {
      server.savepoints.deleteSavepoint(server.project(), name, delete);
      out.message("savepoint " + delete + " of job " + name + " deleted");
      return ExitCodes.OK;
    }
    if (trigger) {
      Savepoint sp = server.savepoints.triggerSavepoint(server.project(), name);
      Savepoint result = waiting.await ? await(server, sp) : sp;
      out.print(result, () -> out.message("savepoint " + result.getId() + " of job " + name + " "
          + (waiting.await ? result.getStatus().getValue() : "triggered")));
      return ExitCodes.OK;
    }
    List<Savepoint> all = new ArrayList<>();
    String token = null;
    do {
      SavepointList page = server.savepoints.listSavepoints(server.project(), name, ListCommand.PAGE_SIZE, token);
      all.addAll(page.getItems() == null ? List.of() : page.getItems());
      token = page.getNextPageToken();
    } while (token != null);
    out.print(new SavepointList().items(all), () -> {
      if (all.isEmpty()) {
        out.message("job " + name + " has no savepoints");
        return;
      }
      Instant now = Instant.now();
      Table t = new Table("ID", "STATUS", "TRIGGER", "PARALLELISM", "SIZE", "DURATION", "AGE");
      for (Savepoint sp : all) {
        t.row(sp.getId(), sp.getStatus() == null ? "-" : sp.getStatus().getValue(),
            sp.getTrigger() == null ? "-" : sp.getTrigger().getValue(),
            sp.getParallelism() == null ? "-" : String.valueOf(sp.getParallelism()),
            Human.bytes(sp.getSizeBytes()),
            sp.getDurationMillis() == null ? "-" : Human.duration(Duration.ofMillis(sp.getDurationMillis())),
            Human.age(sp.getTriggeredAt(), now));
      }
      out.table(t);
    });
    return ExitCodes.OK;
  }

  private Savepoint await(ServerConnection server, Savepoint sp) throws ApiException {
    long deadline = System.nanoTime() + waiting.timeout.toNanos();
    Savepoint current = sp;
    while (current.getStatus() == null || "in-progress".equals(current.getStatus().getValue())) {
      if (System.nanoTime() > deadline) {
        throw new CliFailure(ExitCodes.OTHER, "timed out after " + Human.duration(waiting.timeout)
            + " waiting for savepoint " + sp.getId() + " of job " + name + " to complete");
      }
      try {
        Thread.sleep(200);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new CliFailure(ExitCodes.OTHER, "interrupted while waiting");
      }
      current = server.savepoints.getSavepoint(server.project(), name, sp.getId());
    }
    if ("failed".equals(current.getStatus().getValue())) {
      throw new CliFailure(ExitCodes.OTHER, "savepoint " + sp.getId() + " of job " + name + " failed: "
          + current.getFailureReason());
    }
    return current;
  }
}
