package io.tributary.cli.client;

import io.tributary.client.ApiException;
import io.tributary.client.model.Job;
import io.tributary.client.model.RescaleRequest;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code tributary rescale NAME N}: redeploys a running job at parallelism N from a checkpoint. */
@Command(name = "rescale", mixinStandardHelpOptions = true,
    description = "Rescale a job on the server: a running job redeploys from a savepoint at N, a stopped one runs at N when resumed.")
public final class RescaleCommand extends ClientCommand {
  @Parameters(index = "0", paramLabel = "NAME", description = "the job")
  String name;

  @Parameters(index = "1", paramLabel = "N", description = "the new parallelism, within the spec's bounds")
  int parallelism;

  @Mixin
  WaitOptions waiting;

  @Override
  int run(ServerConnection server, Output out) throws ApiException {
    Job job = server.actions.rescaleJob(server.project(), name, new RescaleRequest().parallelism(parallelism));
    Job result = waiting.await ? waiting.waiter(server).rescaled(job, parallelism) : job;
    out.print(result, () -> out.message("job " + name + (waiting.await ? " running" : " rescaling")
        + " at parallelism " + parallelism));
    return ExitCodes.OK;
  }
}
