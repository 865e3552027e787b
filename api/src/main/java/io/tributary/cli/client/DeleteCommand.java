package io.tributary.cli.client;

import io.tributary.client.ApiException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code tributary delete NAME}: cancels the job (without a savepoint) and removes it. */
@Command(name = "delete", mixinStandardHelpOptions = true,
    description = "Delete a job on the server (its tasks are cancelled without a savepoint).")
public final class DeleteCommand extends ClientCommand {
  @Parameters(index = "0", paramLabel = "NAME", description = "the job")
  String name;

  @Override
  int run(ServerConnection server, Output out) throws ApiException {
    server.jobs.deleteJob(server.project(), name, null);
    out.message("job " + name + " deleted");
    return ExitCodes.OK;
  }
}
