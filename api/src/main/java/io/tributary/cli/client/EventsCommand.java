package io.tributary.cli.client;

import io.tributary.client.ApiException;
import io.tributary.client.model.JobEvent;
import io.tributary.client.model.JobEventList;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code tributary events NAME}: the job's latest lifecycle events. The table reads like a log,
 * oldest first; JSON and YAML print the API's page (newest first).
 */
@Command(name = "events", mixinStandardHelpOptions = true,
    description = "Show a job's lifecycle events on the server.")
public final class EventsCommand extends ClientCommand {
  @Parameters(index = "0", paramLabel = "NAME", description = "the job")
  String name;

  @Option(names = "--limit", paramLabel = "N", defaultValue = "50",
      description = "how many of the latest events (default: ${DEFAULT-VALUE}, at most 500)")
  int limit;

  @Override
  int run(ServerConnection server, Output out) throws ApiException {
    if (limit < 1 || limit > 500) {
      throw new CliFailure(ExitCodes.INVALID, "--limit must be between 1 and 500, not " + limit);
    }
    JobEventList page = server.events.listJobEvents(server.project(), name, limit, null);
    page.setNextPageToken(null);
    List<JobEvent> events = page.getItems() == null ? List.of() : page.getItems();
    out.print(page, () -> {
      if (events.isEmpty()) {
        out.message("job " + name + " has no events");
        return;
      }
      Instant now = Instant.now();
      List<JobEvent> oldestFirst = new ArrayList<>(events);
      Collections.reverse(oldestFirst);
      Table t = new Table("AGE", "KIND", "STATE", "MESSAGE");
      for (JobEvent e : oldestFirst) {
        String state = e.getTo() == null ? "-"
            : (e.getFrom() == null ? "" : e.getFrom().getValue() + " -> ") + e.getTo().getValue();
        String message = e.getMessage() == null ? "" : e.getMessage();
        if (e.getFailure() != null && !message.contains(e.getFailure().getReason())) {
          message = message + ": " + e.getFailure().getReason();
        }
        t.row(Human.age(e.getAt(), now), e.getKind() == null ? "-" : e.getKind().getValue(), state,
            message.replaceAll("\\s*\\R\\s*", " "));
      }
      out.table(t);
    });
    return ExitCodes.OK;
  }
}
