package io.tributary.cli.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.client.ApiException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code tributary output NAME}: the records the job's sinks produce, as they come (first the last
 * ones each sink produced), a line each, until Ctrl-C, {@code --limit} records or {@code --timeout}.
 * A line is {@code operator[subtask] value}; with {@code -o json} it is the event's JSON (JSON Lines).
 */
@Command(name = "output", mixinStandardHelpOptions = true,
    description = "Follow the records a job's sinks produce on the server (the last ones first, then new ones, "
        + "sampled to at most 50 a second per subtask), until Ctrl-C, --limit or --timeout.")
public final class OutputCommand extends ClientCommand {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Parameters(index = "0", paramLabel = "NAME", description = "the job")
  String name;

  @Option(names = "--operator", paramLabel = "ID", description = "only this operator's records (a sink's or any "
      + "other operator's id)")
  String operator;

  @Option(names = "--limit", paramLabel = "N", description = "end after N records")
  Integer limit;

  @Option(names = "--timeout", paramLabel = "DURATION", converter = DurationOption.class,
      description = "end after this long; with --limit, exit 1 if fewer records came")
  Duration timeout;

  @Override
  int run(ServerConnection server, Output out) throws ApiException {
    if (limit != null && limit < 1) {
      throw new CliFailure(ExitCodes.INVALID, "--limit must be at least 1, not " + limit);
    }
    if (out.format() == ServerOptions.Format.YAML) {
      throw new CliFailure(ExitCodes.INVALID, "output prints a line per record: -o table (the default) or -o json");
    }
    InputStream stream = server.openOutput(name, operator);
    AtomicBoolean timedOut = new AtomicBoolean();
    ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "output-timeout");
      t.setDaemon(true);
      return t;
    });
    if (timeout != null) {
      timer.schedule(() -> {
        timedOut.set(true);
        closeQuietly(stream);
      }, timeout.toMillis(), TimeUnit.MILLISECONDS);
    }
    int printed = 0;
    try (BufferedReader lines = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
      EventStream events = new EventStream();
      String line;
      while ((line = lines.readLine()) != null) {
        EventStream.Event event = events.accept(line);
        if (event == null || !"record".equals(event.name())) {
          continue;
        }
        print(System.out, event.data(), out.human());
        printed++;
        if (limit != null && printed >= limit) {
          return ExitCodes.OK;
        }
      }
    } catch (IOException e) {
      if (!timedOut.get()) {
        throw new CliFailure(ExitCodes.OTHER, "the output stream of job " + name + " broke after "
            + count(printed) + ": " + e.getMessage());
      }
    } finally {
      timer.shutdownNow();
    }
    if (timedOut.get()) {
      if (limit == null) {
        return ExitCodes.OK;
      }
      throw new CliFailure(ExitCodes.OTHER, "timed out after " + Human.duration(timeout) + " with "
          + printed + " of " + count(limit));
    }
    throw new CliFailure(ExitCodes.OTHER, "the server ended the output stream of job " + name + " after " + count(printed));
  }

  /** Prints one record event: {@code out[0] {"user":...}} for people, the event's JSON as it came otherwise. */
  static void print(PrintStream out, String data, boolean human) {
    if (!human) {
      out.println(data);
      out.flush();
      return;
    }
    try {
      JsonNode event = JSON.readTree(data);
      String where = event.path("operatorId").asText("?")
          + (event.has("subtask") ? "[" + event.get("subtask").asInt() + "]" : "");
      out.println(where + " " + JSON.writeValueAsString(event.path("value")));
    } catch (IOException e) {
      out.println(data);
    }
    out.flush();
  }

  private static String count(int records) {
    return records + (records == 1 ? " record" : " records");
  }

  private static void closeQuietly(InputStream in) {
    try {
      in.close();
    } catch (IOException e) {
      // closing is how the timeout ends the read; nothing else to do
    }
  }

  /** Server-sent events from their lines: {@code event:} and {@code data:} fields, dispatched at a blank line. */
  static final class EventStream {
    private String name = "message";
    private StringBuilder data;

    record Event(String name, String data) {}

    /** Takes one line; returns the event a blank line completes, else null. */
    Event accept(String line) {
      if (line.isEmpty()) {
        Event done = data == null ? null : new Event(name, data.toString());
        name = "message";
        data = null;
        return done;
      }
      if (line.startsWith(":")) {
        return null;
      }
      int colon = line.indexOf(':');
      String field = colon < 0 ? line : line.substring(0, colon);
      String value = colon < 0 ? "" : line.substring(colon + 1);
      if (value.startsWith(" ")) {
        value = value.substring(1);
      }
      if (field.equals("event")) {
        name = value;
      } else if (field.equals("data")) {
        data = data == null ? new StringBuilder(value) : data.append('\n').append(value);
      }
      return null;
    }
  }
}
