package io.tributary.cli.client;

import io.tributary.client.ApiException;
import io.tributary.client.model.Job;
import io.tributary.client.model.JobEvent;
import io.tributary.client.model.TaskPlacement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code tributary get NAME}: one job, with why it failed if it did, what it is doing while it
 * passes through a state such as deploying (its latest event), and where its tasks run.
 */
@Command(name = "get", mixinStandardHelpOptions = true,
    description = "Show a job on the server.")
public final class GetCommand extends ClientCommand {
  @Parameters(index = "0", paramLabel = "NAME", description = "the job")
  String name;

  /** States a job passes through: {@code get} says what it is doing there (its latest event). */
  private static final java.util.Set<String> PASSING = java.util.Set.of("deploying", "recovering", "updating",
      "rescaling", "stopping", "idle");

  @Override
  int run(ServerConnection server, Output out) throws ApiException {
    Job job = server.jobs.getJob(server.project(), name);
    JobEvent last = job.getObservedState() != null && PASSING.contains(job.getObservedState().getValue())
        ? latestEvent(server) : null;
    out.print(job, () -> {
      Instant now = Instant.now();
      out.table(JobTable.of(List.of(job), now));
      if (job.getFailure() != null) {
        out.message(JobTable.failure(job.getFailure(), now));
      }
      if (last != null && last.getMessage() != null) {
        out.message("latest: " + last.getMessage().replaceAll("\\s*\\R\\s*", " ") + " ("
            + Human.age(last.getAt(), now) + " ago)");
      }
      if (job.getTasks() != null && !job.getTasks().isEmpty()) {
        out.message("");
        out.table(tasksByWorker(job.getTasks()));
      }
    });
    return ExitCodes.OK;
  }

  private JobEvent latestEvent(ServerConnection server) throws ApiException {
    List<JobEvent> events = server.events.listJobEvents(server.project(), name, 1, null).getItems();
    return events == null || events.isEmpty() ? null : events.get(0);
  }

  /** One row per worker: the tasks it runs, as {@code stage[subtask]}. */
  static Table tasksByWorker(List<TaskPlacement> tasks) {
    Map<String, List<String>> byWorker = new TreeMap<>();
    tasks.stream()
        .sorted(Comparator.comparing(TaskPlacement::getStageId).thenComparing(TaskPlacement::getSubtask))
        .forEach(t -> byWorker.computeIfAbsent(t.getWorker(), w -> new ArrayList<>())
            .add((t.getStage() != null ? t.getStage() : "stage " + t.getStageId()) + "[" + t.getSubtask() + "]"));
    Table table = new Table("WORKER", "TASKS");
    byWorker.forEach((worker, names) -> table.row(worker, String.join(", ", names)));
    return table;
  }
}
