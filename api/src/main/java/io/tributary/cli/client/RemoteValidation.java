package io.tributary.cli.client;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tributary.client.ApiException;
import io.tributary.client.model.ExecutionPlan;
import io.tributary.client.model.KeyGroupRange;
import io.tributary.client.model.PlanEdge;
import io.tributary.client.model.PlanLink;
import io.tributary.client.model.PlanOperator;
import io.tributary.client.model.PlanRequest;
import io.tributary.client.model.PlanStage;
import java.util.List;
import java.util.stream.Collectors;

/**
 * {@code tributary validate --server URL SPEC}: the server's dry run ({@code POST /plans}),
 * printed like the offline plan, with what applying the spec would change. Invalid specs exit 2
 * with every error's pointer into the file.
 */
public final class RemoteValidation {
  private static final int MAX_SUBTASKS_LISTED = 16;

  private RemoteValidation() {}

  /** Validates {@code file} on the server the options name; returns the exit code. */
  public static int validate(ServerOptions options, String file, Integer parallelism) {
    ServerConnection server = null;
    try {
      server = options.connect();
      ExecutionPlan plan = server.plans.planJob(server.project(), request(file, parallelism));
      Output out = new Output(options.output());
      out.print(plan, () -> System.out.print(describe(plan)));
      return ExitCodes.OK;
    } catch (ApiException e) {
      return ClientCommand.fail(server.failure(e, JobFiles.isSql(file) ? "/sql" : "/spec", file));
    } catch (CliFailure f) {
      return ClientCommand.fail(f);
    }
  }

  /** The dry run of {@code file}: its spec, or its SQL (whose own SETs stand; -p is refused). */
  private static PlanRequest request(String file, Integer parallelism) {
    if (JobFiles.isSql(file)) {
      if (parallelism != null) {
        throw new CliFailure(ExitCodes.INVALID, "-p does not apply to a SQL job on a server: SET 'parallelism' "
            + "in it");
      }
      String sql = JobFiles.read(file);
      return new PlanRequest().sql(sql).name(JobFiles.defaultName(file));
    }
    RawJobSpec spec = SpecFile.read(file);
    if (parallelism != null) {
      ObjectNode doc = spec.document().deepCopy();
      doc.put("parallelism", parallelism);
      spec = new RawJobSpec(doc);
    }
    return new PlanRequest().spec(spec);
  }

  static String describe(ExecutionPlan plan) {
    StringBuilder out = new StringBuilder();
    out.append("job ").append(plan.getJobName()).append(": ")
        .append(io.tributary.scheduler.planner.PlanPrinter.count(plan.getStages().size(), "stage")).append(", ")
        .append(plan.getMaxParallelism()).append(" key groups, state backend ")
        .append(plan.getStateBackend().getValue()).append('\n');
    if (plan.getChange() != null) {
      out.append("change: ").append(plan.getChange().getAction().getValue())
          .append(plan.getChange().getDescription() == null ? "" : " (" + plan.getChange().getDescription() + ")")
          .append('\n');
    }
    for (PlanStage stage : plan.getStages()) {
      out.append("stage ").append(stage.getId()).append(" [").append(stage.getName()).append("] x")
          .append(stage.getParallelism()).append('\n');
      List<PlanEdge> inputs = plan.getEdges().stream().filter(e -> e.getToStage().equals(stage.getId())).toList();
      for (PlanEdge in : inputs) {
        out.append("  <- ").append(exchange(in)).append(" from stage ").append(in.getFromStage()).append(' ')
            .append(in.getFromOperator()).append(port(in.getPort())).append(" into ").append(in.getToOperator())
            .append('\n');
      }
      for (PlanOperator op : stage.getOperators()) {
        out.append("  ").append(op.getDescription()).append('\n');
      }
      for (PlanLink link : stage.getLinks()) {
        out.append("  chained ").append(link.getFrom()).append(port(link.getPort())).append(" -> ").append(link.getTo())
            .append('\n');
      }
      if (inputs.stream().anyMatch(e -> e.getPartitioning() == PlanEdge.PartitioningEnum.HASH)) {
        out.append("  key groups: ").append(keyGroups(stage.getKeyGroupRanges())).append('\n');
      }
    }
    return out.toString();
  }

  private static String keyGroups(List<KeyGroupRange> ranges) {
    String listed = ranges.stream().limit(MAX_SUBTASKS_LISTED)
        .map(r -> "subtask " + r.getSubtask() + " [" + r.getStart() + ", " + r.getEnd() + ")")
        .collect(Collectors.joining(", "));
    int more = ranges.size() - MAX_SUBTASKS_LISTED;
    return more > 0 ? listed + ", ... (" + more + " more)" : listed;
  }

  private static String exchange(PlanEdge e) {
    switch (e.getPartitioning()) {
      case HASH:
        boolean global = e.getKeyFields() == null || e.getKeyFields().isEmpty();
        return global ? "hash (one global key)" : "hash by " + e.getKeyFields();
      case REBALANCE:
        return "rebalance";
      default:
        return "forward";
    }
  }

  private static String port(String port) {
    return port == null ? "" : "[" + port + "]";
  }
}
