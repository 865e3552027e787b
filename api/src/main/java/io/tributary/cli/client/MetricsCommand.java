package io.tributary.cli.client;

import io.tributary.client.ApiException;
import io.tributary.client.model.JobMetrics;
import io.tributary.client.model.OperatorMetrics;
import io.tributary.scheduler.planner.PlanPrinter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code tributary metrics NAME}: the job's current figures, a line for the job and a row per
 * operator, as the console's graph shows them; JSON and YAML print the API resource.
 */
@Command(name = "metrics", mixinStandardHelpOptions = true,
    description = "Show a job's current metrics on the server: records per second, watermark lag, busy and "
        + "backpressured time, per operator.")
public final class MetricsCommand extends ClientCommand {
  @Parameters(index = "0", paramLabel = "NAME", description = "the job")
  String name;

  @Override
  int run(ServerConnection server, Output out) throws ApiException {
    JobMetrics m = server.metrics.getJobMetrics(server.project(), name);
    out.print(m, () -> {
      out.message(summary(name, m));
      List<OperatorMetrics> operators = m.getOperators() == null ? List.of() : m.getOperators();
      if (operators.isEmpty()) {
        return;
      }
      Table t = new Table("OPERATOR", "STAGE", "PARALLELISM", "IN/S", "OUT/S", "WATERMARK-LAG", "BUSY",
          "BACKPRESSURED", "STATE", "CHECKPOINT", "LATE", "MALFORMED");
      for (OperatorMetrics o : operators) {
        t.row(o.getOperatorId(), number(o.getStageId()), number(o.getParallelism()), rate(o.getRecordsInPerSecond()),
            rate(o.getRecordsOutPerSecond()), lag(o.getWatermarkLagMillis()), share(o.getBusyTimeMsPerSecond()),
            share(o.getBackpressuredTimeMsPerSecond()), Human.bytes(o.getStateSizeBytes()),
            millis(o.getLastCheckpointDurationMillis()), number(o.getLateRecordsDropped()), number(o.getMalformedRecords()));
      }
      out.table(t);
    });
    return ExitCodes.OK;
  }

  /** The job's line: {@code job clicks: 1,002 records/s in, 40/s out, watermark lag 4.1s, ...}. */
  static String summary(String name, JobMetrics m) {
    List<String> parts = new ArrayList<>();
    parts.add(rate(m.getRecordsInPerSecond()) + " records/s in");
    parts.add(rate(m.getRecordsOutPerSecond()) + "/s out");
    parts.add("watermark lag " + lag(m.getWatermarkLagMillis()));
    parts.add("busy " + share(m.getBusyTimeMsPerSecond()));
    parts.add("backpressured " + share(m.getBackpressuredTimeMsPerSecond()));
    if (m.getLastCheckpointDurationMillis() != null) {
      parts.add("last checkpoint " + millis(m.getLastCheckpointDurationMillis())
          + (m.getLastCheckpointSizeBytes() == null ? "" : ", " + Human.bytes(m.getLastCheckpointSizeBytes())));
    }
    parts.add(m.getRestarts() == null ? "restarts -" : PlanPrinter.count(m.getRestarts(), "restart"));
    parts.add(number(m.getLateRecordsDropped()) + " late dropped");
    parts.add(number(m.getMalformedRecords()) + " malformed");
    return "job " + name + ": " + String.join(", ", parts);
  }

  static String rate(Double perSecond) {
    if (perSecond == null) {
      return "-";
    }
    return perSecond < 10 && perSecond != Math.rint(perSecond)
        ? String.format(Locale.ROOT, "%.1f", perSecond)
        : String.format(Locale.ROOT, "%,d", Math.round(perSecond));
  }

  /** A lag; a watermark ahead of the wall clock (a generator faster than real time) says so. */
  static String lag(Long millis) {
    if (millis == null) {
      return "-";
    }
    return millis < 0 ? "ahead " + Human.duration(Duration.ofMillis(-millis)) : Human.duration(Duration.ofMillis(millis));
  }

  private static String millis(Long millis) {
    return millis == null ? "-" : Human.duration(Duration.ofMillis(millis));
  }

  /** Milliseconds per second as a share of the time. */
  static String share(Integer msPerSecond) {
    return msPerSecond == null ? "-" : Math.round(msPerSecond / 10.0) + "%";
  }

  private static String number(Number n) {
    return n == null ? "-" : String.format(Locale.ROOT, "%,d", n.longValue());
  }
}
