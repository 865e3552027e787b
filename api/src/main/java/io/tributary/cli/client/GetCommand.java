package io.tributary.cli.client;

import io.tributary.client.ApiException;
import io.tributary.client.model.Job;
import java.time.Instant;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code tributary get NAME}: one job, with why it failed if it did. */
@Command(name = "get", mixinStandardHelpOptions = true,
    description = "Show a job on the server.")
public final class GetCommand extends ClientCommand {
  @Parameters(index = "0", paramLabel = "NAME", description = "the job")
  String name;

  @Override
  int run(ServerConnection server, Output out) throws ApiException {
    Job job = server.jobs.getJob(server.project(), name);
    out.print(job, () -> {
      Instant now = Instant.now();
      out.table(JobTable.of(List.of(job), now));
      if (job.getFailure() != null) {
        out.message(JobTable.failure(job.getFailure(), now));
      }
    });
    return ExitCodes.OK;
  }
}
