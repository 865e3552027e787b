package io.tributary.cli.client;

import io.tributary.client.ApiException;
import io.tributary.client.model.Job;
import io.tributary.client.model.StopRequest;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code tributary stop NAME [--savepoint]}: sets the job's desired state to STOPPED. */
@Command(name = "stop", mixinStandardHelpOptions = true,
    description = "Stop a job on the server, optionally after a savepoint.")
public final class StopCommand extends ClientCommand {
  @Parameters(index = "0", paramLabel = "NAME", description = "the job")
  String name;

  @Option(names = "--savepoint", description = "take a savepoint first; a later resume from latest starts from it")
  boolean savepoint;

  @Mixin
  WaitOptions waiting;

  @Override
  int run(ServerConnection server, Output out) throws ApiException {
    Job job = server.actions.stopJob(server.project(), name, new StopRequest().savepoint(savepoint));
    Job result = waiting.await ? waiting.waiter(server).stopped(job) : job;
    out.print(result, () -> out.message("job " + name + " "
        + (waiting.await ? result.getObservedState().getValue() : "stopping")
        + (savepoint ? " with a savepoint" : "")));
    return ExitCodes.OK;
  }
}
