package io.tributary.cli.client;

import io.tributary.client.ApiException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code tributary delete NAME [--savepoints]}: cancels the job (without a savepoint) and removes it
 * with its checkpoints; its savepoints stay unless {@code --savepoints}.
 */
@Command(name = "delete", mixinStandardHelpOptions = true,
    description = "Delete a job on the server (its tasks are cancelled without a savepoint) with its checkpoints; "
        + "its savepoints stay for a job created again under the name, unless --savepoints.")
public final class DeleteCommand extends ClientCommand {
  @Parameters(index = "0", paramLabel = "NAME", description = "the job")
  String name;

  @picocli.CommandLine.Option(names = "--savepoints", description = "also delete the job's savepoints")
  boolean savepoints;

  @Override
  int run(ServerConnection server, Output out) throws ApiException {
    server.jobs.deleteJob(server.project(), name, null, savepoints ? Boolean.TRUE : null);
    out.message("job " + name + " deleted");
    return ExitCodes.OK;
  }
}
