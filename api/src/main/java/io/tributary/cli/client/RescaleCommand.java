package io.tributary.cli.client;

import io.tributary.client.ApiException;
import io.tributary.client.model.Job;
import io.tributary.client.model.RescaleRequest;
import picocli.CommandLine.Command;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code tributary rescale NAME [N] [--stage ID=N]...}: redeploys a running job at parallelism N,
 * or some of its stages at their own, from a savepoint.
 */
@Command(name = "rescale", mixinStandardHelpOptions = true,
    description = "Rescale a job on the server: a running job redeploys from a checkpoint at N (or with the stages "
        + "named by --stage at theirs), a stopped one runs so when resumed.")
public final class RescaleCommand extends ClientCommand {
  @Parameters(index = "0", paramLabel = "NAME", description = "the job")
  String name;

  @Parameters(index = "1", paramLabel = "N", arity = "0..1",
      description = "the new parallelism of every stage not named by --stage, within the spec's bounds")
  Integer parallelism;

  @Option(names = "--stage", paramLabel = "ID=N",
      description = "the parallelism of the stage of operator ID (repeatable); the other stages stay as they are "
          + "unless N is given")
  Map<String, Integer> stages = new LinkedHashMap<>();

  @Mixin
  WaitOptions waiting;

  @Override
  int run(ServerConnection server, Output out) throws ApiException {
    if (parallelism == null && stages.isEmpty()) {
      throw new CliFailure(ExitCodes.INVALID, "give the new parallelism N, or --stage ID=N for single stages");
    }
    RescaleRequest request = new RescaleRequest().parallelism(parallelism);
    if (!stages.isEmpty()) {
      request.stages(stages);
    }
    Job job = server.actions.rescaleJob(server.project(), name, request);
    Job result = waiting.await ? waiting.waiter(server).rescaled(job, parallelism, stages) : job;
    String at = (parallelism != null ? " at parallelism " + parallelism : "") + (stages.isEmpty() ? "" : " with "
        + String.join(", ", stages.entrySet().stream().map(e -> "stage " + e.getKey() + " at " + e.getValue()).toList()))
        + (result.getDesiredState() == io.tributary.client.model.DesiredState.STOPPED ? " when resumed" : "");
    out.print(result, () -> out.message("job " + name + " " + said(result, waiting.await) + at));
    return ExitCodes.OK;
  }

  /** What the job does with the new parallelism: runs at it, is rescaling, runs so already, or will when resumed. */
  private String said(Job job, boolean waited) {
    if (job.getDesiredState() == io.tributary.client.model.DesiredState.STOPPED) {
      return "will run";
    }
    if (waited) {
      return "running";
    }
    boolean unchanged = stages.isEmpty() && job.getObservedState() == io.tributary.client.model.ObservedState.RUNNING
        && parallelism.equals(job.getParallelism());
    return unchanged ? "runs already" : "rescaling";
  }
}
