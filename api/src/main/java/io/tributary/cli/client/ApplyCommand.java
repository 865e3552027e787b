package io.tributary.cli.client;

import io.tributary.client.ApiException;
import io.tributary.client.ApiResponse;
import io.tributary.client.model.Job;
import io.tributary.client.model.JobApply;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code tributary apply -f job.yaml} (or {@code job.sql}): creates the job or brings it to the spec
 * (PUT, idempotent).
 * With {@code --wait} it returns once the job runs (or, bounded, has finished); a job that fails
 * to start or takes longer than {@code --timeout} exits 1 with one line saying why.
 */
@Command(name = "apply", mixinStandardHelpOptions = true,
    description = "Create or update a job on the server from a spec file (idempotent).")
public final class ApplyCommand extends ClientCommand {
  @Option(names = {"-f", "--file"}, required = true, paramLabel = "FILE",
      description = "job spec, YAML or JSON, or a SQL job (*.sql) ('-' reads stdin)")
  String file;

  @Mixin
  WaitOptions waiting;

  @Override
  int run(ServerConnection server, Output out) throws ApiException {
    ApiResponse<Job> applied;
    if (JobFiles.isSql(file)) {
      String sql = JobFiles.read(file);
      String name = JobFiles.sqlName(sql, file);
      if (name == null) {
        throw new CliFailure(ExitCodes.INVALID, file + " has no name: SET 'name' = 'my-job';");
      }
      applied = server.jobs.applyJobWithHttpInfo(server.project(), name, new JobApply().sql(sql), null, null);
    } else {
      RawJobSpec spec = SpecFile.read(file);
      applied = server.jobs.applyJobWithHttpInfo(
          server.project(), spec.getName(), new JobApply().spec(spec), null, null);
    }
    Job job = applied.getData();
    String what = applied.getStatusCode() == 201 ? "created" : "applied";
    if (!waiting.await) {
      out.print(job, () -> out.message("job " + job.getName() + " " + what + " (version " + job.getVersion() + ")"));
      return ExitCodes.OK;
    }
    Job settled = waiting.waiter(server).settled(job);
    out.print(settled, () -> out.message("job " + settled.getName() + " " + what + " (version " + settled.getVersion()
        + ") and " + settled.getObservedState().getValue()
        + (settled.getParallelism() == null ? "" : " at parallelism " + settled.getParallelism())));
    return ExitCodes.OK;
  }

  @Override
  String file() {
    return file;
  }

  @Override
  String pointerPrefix() {
    return JobFiles.isSql(file) ? "/sql" : "/spec";
  }
}
