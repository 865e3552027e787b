package io.tributary.bench;

import io.tributary.cli.client.DurationOption;
import io.tributary.connectors.kafka.KafkaBroker;
import io.tributary.protocol.AttemptId;
import io.tributary.scheduler.lifecycle.JobEvent;
import io.tributary.scheduler.lifecycle.JobView;
import io.tributary.scheduler.lifecycle.ObservedState;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code tributary bench autoscale}: the autoscaler under load steps, on two local worker processes
 * and a real Kafka broker (its own process).
 *
 * <p>The job reads a topic, keys it by user in a stage whose every subtask takes at most
 * {@code --cost} records a second (a throttled blackhole beside it: a fixed cost per record, which
 * a two-core machine cannot show with real work, since a second subtask would only share the same
 * cores), counts clicks per user in 1 s tumbling event-time windows and writes the counts to an
 * exactly-once Kafka sink. A feeder writes records stamped with the wall clock at each
 * {@code --steps} rate in turn; then it stops, the job goes idle ({@code idleAfter}) and new
 * records resume it.
 *
 * <p>Printed: every decision with its time since the start, per step the time until the job runs,
 * for good, at a parallelism that keeps up — its parallelism no longer changes within the step and
 * its committed output (read with {@code read_committed}) lags the wall clock by less than
 * {@code --keeping-up-lag} from then to the end of the step — the number of rescales and of
 * reversals (a stage rescaled in the opposite direction within the same step), the pause of every
 * rescale (last records into the job's tasks before, first after, from the workers' reports) and
 * the resume from idle. Nothing is asserted.
 */
@Command(name = "autoscale", description = {
    "The autoscaler under load steps on 2 worker processes and a Kafka broker: decisions",
    "and their times, time from each step to a parallelism that keeps up, rescales and",
    "reversals, the pause of each rescale, and the resume time from idle."})
final class AutoscaleBench implements Callable<Integer> {
  private static final String P = "default";
  private static final String JOB = "clicks";
  private static final int PARTITIONS = 2;
  private static final int USERS = 50;
  private static final Pattern CHANGE = Pattern.compile("(\\S+) (\\d+) → (\\d+)");
  private static final Pattern WINDOW_END = Pattern.compile("\"window_end\":(\\d+)");

  @Option(names = "--steps", split = ",", defaultValue = "100:20s,1000:60s,100:60s",
      description = "load steps, RATE:DURATION (records a second, for that long), in turn (default ${DEFAULT-VALUE})")
  List<String> steps;

  @Option(names = "--cost", defaultValue = "400",
      description = "records a second each subtask of the keyed stage takes (default ${DEFAULT-VALUE})")
  int cost;

  @Option(names = "--max-parallelism", defaultValue = "4",
      description = "the job's parallelism: {max} (default ${DEFAULT-VALUE})")
  int maxParallelism;

  @Option(names = "--worker-slots", defaultValue = "4",
      description = "slots of each of the 2 worker processes (default ${DEFAULT-VALUE})")
  int workerSlots;

  @Option(names = "--autoscaler", defaultValue = "{metricsWindow: 5s, stabilization: 5s, scaleDownDelay: 15s, "
      + "catchUpDuration: 20s}",
      description = "the job's autoscaler block (default ${DEFAULT-VALUE})")
  String autoscaler;

  @Option(names = "--idle-after", defaultValue = "5s", converter = DurationOption.class,
      description = "the job's idleAfter (default ${DEFAULT-VALUE})")
  Duration idleAfter;

  @Option(names = "--keeping-up-lag", defaultValue = "5s", converter = DurationOption.class,
      description = "committed output at most this far behind the wall clock counts as keeping up (default "
          + "${DEFAULT-VALUE}; the window's own delay is about 2 s plus a checkpoint interval)")
  Duration keepingUpLag;

  @Option(names = "--work-dir", description = "data directory (default: a new temporary directory, deleted after)")
  Path workDir;

  private record Step(int rate, Duration length) {}

  /** What the sampler saw: the job's state, its stages' parallelism, and the output's lag. */
  private record Sample(long atNanos, ObservedState state, Map<String, Integer> stages, long lagMillis) {}

  private record Decision(double at, int step, String stage, int from, int to, String message) {}

  @Override
  public Integer call() throws Exception {
    List<Step> plan = steps.stream().map(AutoscaleBench::step).toList();
    Path dir = workDir != null ? workDir : Files.createTempDirectory("tributary-bench-autoscale");
    PrintStream out = System.out;
    try (KafkaBroker kafka = KafkaBroker.start()) {
      kafka.createTopic("clicks", PARTITIONS);
      kafka.createTopic("clicks-per-user", PARTITIONS);
      try (ClusterBench.Env env = ClusterBench.Env.workers(dir.resolve("data"), workerSlots, "1g",
          Duration.ofMillis(250));
          Feed feed = new Feed(kafka.bootstrapServers());
          Output output = new Output(kafka.bootstrapServers())) {
        out.printf("autoscale: Kafka (%d partitions) -> keyBy user (each subtask takes %d records/s) -> 1 s tumbling "
            + "count per user -> exactly-once Kafka; parallelism 1..%d, 2 worker processes x %d slots; autoscaler %s; "
            + "idleAfter %s%n", PARTITIONS, cost, maxParallelism, workerSlots, autoscaler,
            text(idleAfter));
        feed.rate = plan.get(0).rate();
        env.jobs.apply(P, JOB, spec(kafka.bootstrapServers()), null);
        env.awaitProcessing(JOB, null, Duration.ofMinutes(2));
        List<Sample> samples = new ArrayList<>();
        Sampler sampler = new Sampler(env, output, samples);
        long start = System.nanoTime();
        Instant startWall = Instant.now();
        long[] stepStarts = new long[plan.size() + 1];
        for (int i = 0; i < plan.size(); i++) {
          stepStarts[i] = System.nanoTime();
          feed.rate = plan.get(i).rate();
          System.err.printf("step %d: %d records/s for %s%n", i + 1, plan.get(i).rate(),
              text(plan.get(i).length()));
          sampler.runFor(plan.get(i).length());
        }
        stepStarts[plan.size()] = System.nanoTime();

        // scale to zero, and back
        feed.rate = 0;
        System.err.println("no input: waiting for the job to go idle");
        ClusterBench.await("the job goes idle", idleAfter.plus(Duration.ofMinutes(2)),
            () -> env.jobs.get(P, JOB).observed() == ObservedState.IDLE);
        long idleAt = System.nanoTime();
        AttemptId before = env.observer.current();
        feed.rate = plan.get(0).rate();
        long writtenAt = feed.awaitNextWrite();
        ClusterBench.await("the job resumes", Duration.ofMinutes(1),
            () -> env.jobs.get(P, JOB).observed() == ObservedState.RUNNING);
        long runningAt = System.nanoTime();
        AttemptId resumed = env.awaitProcessing(JOB, before, Duration.ofMinutes(1));
        long recordsAt = env.observer.firstRecordsAt(resumed);
        long committedBefore = output.count();
        ClusterBench.await("output after the resume", Duration.ofMinutes(1), () -> output.count() > committedBefore);
        long outputAt = output.lastAt();
        int written = feed.stop();

        List<Decision> decisions = decisions(env.jobs.events(P, JOB), startWall, start, stepStarts);
        out.printf("%d records written; %d window results committed%n%n", written, output.count());
        printDecisions(decisions, out);
        printSteps(plan, stepStarts, samples, decisions, start, out);
        printPauses(env, decisions, resumed, out);
        out.printf("%nidle: went idle %.1f s after the input stopped (idleAfter %s); first new record -> RUNNING %.2f s, "
            + "-> records processed %.2f s, -> first output committed %.2f s (a 1 s window, 1 s out-of-orderness and "
            + "a 1 s checkpoint interval included)%n", (idleAt - stepStarts[plan.size()]) / 1e9,
            text(idleAfter), (runningAt - writtenAt) / 1e9, (recordsAt - writtenAt) / 1e9,
            (outputAt - writtenAt) / 1e9);
        env.jobs.delete(P, JOB, null, true);
      }
    } finally {
      if (workDir == null) {
        ClusterBench.deleteTree(dir);
      }
    }
    return 0;
  }

  private String spec(String bootstrap) {
    return """
        name: %2$s
        parallelism: {initial: 1, min: 1, max: %3$d}
        checkpoints: {interval: 1s}
        state: {backend: forst}
        idleAfter: %4$s
        autoscaler: %5$s
        sources:
          clicks: {type: kafka, bootstrapServers: "%1$s", topic: clicks, startFrom: earliest,
                   eventTime: {field: ts, maxOutOfOrderness: 1s, idleTimeout: 2s}}
        operators:
          - {id: by-user, input: clicks, keyBy: [user]}
          - {id: per-user, input: by-user, keyBy: [user], window: {type: tumbling, size: 1s},
             aggregate: {clicks: "count(*)"}}
        sinks:
          cost: {input: by-user, type: blackhole, maxRecordsPerSecondPerSubtask: %6$d}
          out: {input: per-user, type: kafka, bootstrapServers: "%1$s", topic: clicks-per-user, keyFields: [user],
                delivery: exactly-once, transactionalIdPrefix: bench-autoscale}
        """.formatted(bootstrap, JOB, maxParallelism, text(idleAfter), autoscaler, cost);
  }

  private static Step step(String s) {
    int colon = s.indexOf(':');
    if (colon < 1) {
      throw new IllegalArgumentException("--steps takes RATE:DURATION, e.g. 1000:60s, not '" + s + "'");
    }
    try {
      return new Step(Integer.parseInt(s.substring(0, colon).strip()),
          new DurationOption().convert(s.substring(colon + 1).strip()));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("--steps takes RATE:DURATION, e.g. 1000:60s, not '" + s + "'");
    }
  }

  /** The autoscaler's applied decisions, one per stage changed, with the step they fell in. */
  private static List<Decision> decisions(List<JobEvent> events, Instant startWall, long start, long[] stepStarts) {
    List<Decision> decisions = new ArrayList<>();
    events.stream().filter(e -> e.type() == JobEvent.Type.AUTOSCALED && !e.message().contains("was not applied"))
        .sorted(Comparator.comparingLong(JobEvent::seq)).forEach(e -> {
          double at = Duration.between(startWall, e.time()).toNanos() / 1e9;
          int step = 0;
          for (int i = 0; i < stepStarts.length; i++) {
            if (start + (long) (at * 1e9) >= stepStarts[i]) {
              step = i + 1;
            }
          }
          String what = e.message().replaceFirst("^autoscaler: ", "");
          int paren = what.indexOf(" (");
          Matcher m = CHANGE.matcher(paren < 0 ? what : what.substring(0, paren));
          while (m.find()) {
            decisions.add(new Decision(at, step, m.group(1), Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)),
                e.message()));
          }
        });
    return decisions;
  }

  private static void printDecisions(List<Decision> decisions, PrintStream out) {
    out.println("decisions (seconds since the first step):");
    if (decisions.isEmpty()) {
      out.println("  none");
    }
    String last = null;
    for (Decision d : decisions) {
      if (!d.message().equals(last)) {
        out.printf("  %7.1f s  step %d  %s%n", d.at(), d.step(), d.message());
      }
      last = d.message();
    }
  }

  private void printSteps(List<Step> plan, long[] stepStarts, List<Sample> samples, List<Decision> decisions,
      long start, PrintStream out) {
    out.printf("%n%-6s %10s %10s %22s %22s %10s %10s%n", "step", "rate", "length", "parallelism at end",
        "step->keeping up", "rescales", "reversals");
    int rescales = 0;
    int reversals = 0;
    for (int i = 0; i < plan.size(); i++) {
      long from = stepStarts[i];
      long to = stepStarts[i + 1];
      List<Sample> in = samples.stream().filter(s -> s.atNanos() >= from && s.atNanos() < to).toList();
      int step = i + 1;
      List<Decision> mine = decisions.stream().filter(d -> d.step() == step).toList();
      int stepReversals = reversals(mine);
      long stepRescales = mine.stream().map(Decision::message).distinct().count();
      rescales += (int) stepRescales;
      reversals += stepReversals;
      String settled = "not within the step";
      if (!in.isEmpty()) {
        Sample last = in.get(in.size() - 1);
        int k = in.size();
        while (k > 0 && keepsUp(in.get(k - 1), last)) {
          k--;
        }
        if (k < in.size()) {
          settled = String.format("%.1f s", (in.get(k).atNanos() - from) / 1e9);
        }
      }
      String parallelism = in.isEmpty() ? "?" : in.get(in.size() - 1).stages().toString();
      out.printf("%-6d %8d/s %10s %22s %22s %10d %10d%n", step, plan.get(i).rate(),
          text(plan.get(i).length()), parallelism, settled, stepRescales, stepReversals);
    }
    out.printf("%d rescales, %d reversals in all (keeping up: the stages' parallelism stays as at the step's end and "
        + "the committed output lags by less than %s)%n", rescales, reversals, text(keepingUpLag));
  }

  private boolean keepsUp(Sample s, Sample last) {
    return s.state() == ObservedState.RUNNING && s.stages().equals(last.stages())
        && s.lagMillis() >= 0 && s.lagMillis() < keepingUpLag.toMillis();
  }

  /** Decisions of a stage in the direction opposite to its previous one. */
  private static int reversals(List<Decision> decisions) {
    Map<String, Integer> direction = new java.util.HashMap<>();
    int n = 0;
    for (Decision d : decisions) {
      int dir = Integer.signum(d.to() - d.from());
      Integer before = direction.put(d.stage(), dir);
      if (before != null && before != dir) {
        n++;
      }
    }
    return n;
  }

  private static void printPauses(ClusterBench.Env env, List<Decision> decisions, AttemptId resumed, PrintStream out) {
    out.printf("%nrescale pauses (last records into the job's tasks before, first after):%n");
    List<AttemptId> attempts = env.observer.attempts();
    List<String> messages = decisions.stream().map(Decision::message).distinct().toList();
    int next = 0;
    double worst = 0;
    for (int i = 1; i < attempts.size(); i++) {
      AttemptId a = attempts.get(i);
      if (a.equals(resumed)) {
        break; // the resume from idle, not a rescale
      }
      long paused = env.observer.firstRecordsAt(a) - env.observer.lastProgressAt(attempts.get(i - 1));
      String why = next < messages.size() ? messages.get(next++).replaceFirst(" \\(.*", "") : "a restart";
      out.printf("  %-40s paused %.2f s%n", why, paused / 1e9);
      worst = Math.max(worst, paused / 1e9);
    }
    out.printf("longest pause: %.2f s%n", worst);
  }

  // ---- the load, the output and the sampler ----

  /** Records {@code {id, user, ts}} (ts: the wall clock) at {@link #rate} a second, in tenths of a second. */
  private static final class Feed implements AutoCloseable {
    volatile int rate;
    private volatile boolean stopping;
    private volatile long lastWriteAt;
    private int next;
    private final String bootstrap;
    private final Thread thread = new Thread(this::run, "bench-autoscale-feed");

    Feed(String bootstrap) {
      this.bootstrap = bootstrap;
      thread.setDaemon(true);
      thread.start();
    }

    private void run() {
      Properties p = new Properties();
      p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
      p.put(ProducerConfig.LINGER_MS_CONFIG, 5);
      try (KafkaProducer<String, String> producer = new KafkaProducer<>(p, new StringSerializer(),
          new StringSerializer())) {
        long tick = System.nanoTime();
        while (!stopping) {
          int n = rate / 10;
          if (n > 0) {
            lastWriteAt = System.nanoTime();
          }
          for (int i = 0; i < n; i++) {
            int id = next++;
            producer.send(new ProducerRecord<>("clicks", id % PARTITIONS, null, "{\"id\":" + id + ",\"user\":\"u"
                + (id % USERS) + "\",\"ts\":" + System.currentTimeMillis() + "}"));
          }
          tick += 100_000_000L;
          long wait = tick - System.nanoTime();
          if (wait > 0) {
            LockSupport.parkNanos(wait);
          }
        }
        producer.flush();
      }
    }

    /** Waits for the feeder's next write; returns when it began. */
    long awaitNextWrite() throws InterruptedException {
      long after = System.nanoTime();
      ClusterBench.await("the feeder writes", Duration.ofSeconds(10), () -> lastWriteAt >= after);
      return lastWriteAt;
    }

    int stop() throws InterruptedException {
      stopping = true;
      thread.join();
      return next;
    }

    @Override
    public void close() throws InterruptedException {
      stop();
    }
  }

  /** The committed window results (read_committed): how many, and the latest window end seen. */
  private static final class Output implements AutoCloseable {
    private volatile boolean stopping;
    private volatile long count;
    private volatile long lastAt;
    private volatile long latestWindowEnd = -1;
    private final String bootstrap;
    private final Thread thread = new Thread(this::run, "bench-autoscale-output");

    Output(String bootstrap) {
      this.bootstrap = bootstrap;
      thread.setDaemon(true);
      thread.start();
    }

    private void run() {
      Properties p = new Properties();
      p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
      p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
      p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
      try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(p, new StringDeserializer(),
          new StringDeserializer())) {
        List<TopicPartition> parts = new ArrayList<>();
        for (int i = 0; i < PARTITIONS; i++) {
          parts.add(new TopicPartition("clicks-per-user", i));
        }
        consumer.assign(parts);
        while (!stopping) {
          for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(100))) {
            Matcher m = WINDOW_END.matcher(r.value());
            if (m.find()) {
              latestWindowEnd = Math.max(latestWindowEnd, Long.parseLong(m.group(1)));
            }
            lastAt = System.nanoTime();
            count++;
          }
        }
      }
    }

    long count() {
      return count;
    }

    long lastAt() {
      return lastAt;
    }

    /** How far the latest committed window end is behind the wall clock, in ms; -1 before any. */
    long lagMillis() {
      long end = latestWindowEnd;
      return end < 0 ? -1 : System.currentTimeMillis() - end;
    }

    @Override
    public void close() throws InterruptedException {
      stopping = true;
      thread.join();
    }
  }

  /** Samples the job and the output every 250 ms while a step runs. */
  private record Sampler(ClusterBench.Env env, Output output, List<Sample> samples) {
    void runFor(Duration length) {
      long end = System.nanoTime() + length.toNanos();
      long next = System.nanoTime();
      while (System.nanoTime() < end) {
        JobView v = env.jobs.get(P, JOB);
        samples.add(new Sample(System.nanoTime(), v.observed(), stages(v), output.lagMillis()));
        next += 250_000_000L;
        LockSupport.parkNanos(Math.max(0, Math.min(next, end) - System.nanoTime()));
      }
    }

    private static Map<String, Integer> stages(JobView v) {
      Map<String, Integer> stages = new java.util.TreeMap<>();
      if (v.stageParallelism() != null) {
        stages.putAll(v.stageParallelism());
      }
      stages.put("*", v.parallelism());
      return stages;
    }
  }

  /** A duration as a spec writes it: {@code 500ms}, {@code 5s}, {@code 2m}. */
  private static String text(Duration d) {
    long ms = d.toMillis();
    if (ms >= 60_000 && ms % 60_000 == 0) {
      return ms / 60_000 + "m";
    }
    return ms >= 1000 && ms % 1000 == 0 ? ms / 1000 + "s" : ms + "ms";
  }
}
