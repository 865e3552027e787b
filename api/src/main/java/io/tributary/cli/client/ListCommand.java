package io.tributary.cli.client;

import io.tributary.client.ApiException;
import io.tributary.client.model.Job;
import io.tributary.client.model.JobList;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;

/** {@code tributary list}: every job of the project, by name (all pages). */
@Command(name = "list", mixinStandardHelpOptions = true,
    description = "List the project's jobs on the server.")
public final class ListCommand extends ClientCommand {
  static final int PAGE_SIZE = 500;

  @Override
  int run(ServerConnection server, Output out) throws ApiException {
    List<Job> jobs = new ArrayList<>();
    String token = null;
    do {
      JobList page = server.jobs.listJobs(server.project(), PAGE_SIZE, token);
      jobs.addAll(page.getItems() == null ? List.of() : page.getItems());
      token = page.getNextPageToken();
    } while (token != null);
    out.print(new JobList().items(jobs), () -> {
      if (jobs.isEmpty()) {
        out.message("no jobs in project " + server.project());
      } else {
        out.table(JobTable.of(jobs, Instant.now()));
      }
    });
    return ExitCodes.OK;
  }
}
