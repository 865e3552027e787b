package io.tributary.cli.client;

import io.tributary.client.ApiException;
import io.tributary.client.model.Job;
import io.tributary.client.model.RestorePolicy;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code tributary resume NAME [--from latest|none|savepoint --savepoint-id ID]}. */
@Command(name = "resume", mixinStandardHelpOptions = true,
    description = "Resume a stopped, failed or finished job on the server.")
public final class ResumeCommand extends ClientCommand {
  @Parameters(index = "0", paramLabel = "NAME", description = "the job")
  String name;

  @Option(names = "--from", paramLabel = "FROM",
      description = "latest (the latest checkpoint or savepoint; the default), none, "
          + "or savepoint (with --savepoint-id)")
  String from;

  @Option(names = "--savepoint-id", paramLabel = "ID",
      description = "the savepoint to start from (implies --from savepoint)")
  String savepointId;

  @Mixin
  WaitOptions waiting;

  @Override
  int run(ServerConnection server, Output out) throws ApiException {
    Job job = server.actions.resumeJob(server.project(), name, policy());
    Job result = waiting.await ? waiting.waiter(server).running(job, "run") : job;
    out.print(result, () -> out.message("job " + name + " "
        + (waiting.await ? result.getObservedState().getValue() : "resuming")
        + " from " + describe(result.getRestorePolicy())));
    return ExitCodes.OK;
  }

  RestorePolicy policy() {
    String f = from != null ? from : savepointId != null ? "savepoint" : "latest";
    RestorePolicy.FromEnum value;
    try {
      value = RestorePolicy.FromEnum.fromValue(f);
    } catch (IllegalArgumentException e) {
      throw new CliFailure(ExitCodes.INVALID, "--from must be latest, none or savepoint, not '" + f + "'");
    }
    if (value == RestorePolicy.FromEnum.SAVEPOINT && savepointId == null) {
      throw new CliFailure(ExitCodes.INVALID,
          "--from savepoint needs --savepoint-id (see: tributary savepoints " + name + ")");
    }
    if (value != RestorePolicy.FromEnum.SAVEPOINT && savepointId != null) {
      throw new CliFailure(ExitCodes.INVALID, "--savepoint-id goes with --from savepoint, not --from " + f);
    }
    return new RestorePolicy().from(value).savepointId(savepointId);
  }

  private static String describe(RestorePolicy p) {
    if (p == null) {
      return "latest";
    }
    return p.getSavepointId() != null ? "savepoint " + p.getSavepointId() : p.getFrom().getValue();
  }
}
