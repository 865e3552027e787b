package io.tributary.scheduler.observe;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.tributary.plan.ExecutionPlan;
import io.tributary.scheduler.autoscale.Autoscaler;
import io.tributary.scheduler.autoscale.AutoscalerSettings;
import io.tributary.scheduler.autoscale.JobSample;
import io.tributary.scheduler.autoscale.ScalingDecision;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;

/**
 * The metrics of a control plane and its jobs, in a Micrometer {@link PrometheusMeterRegistry}.
 * {@link #sample()}, every second on the manager's metrics thread, samples every job
 * ({@link JobMetricsTracker}) and refreshes the gauges; a deleted job's meters go at once
 * ({@link #remove}) or on the next sample.
 *
 * <p>Series, tagged {@code project} and {@code job} (and {@code operator}):
 * <ul>
 *   <li>counters {@code tributary_job_records_in_total}, {@code _records_out_total},
 *       {@code _late_records_dropped_total}, {@code _malformed_records_total} (over the job's runs in
 *       this process) and {@code tributary_job_restarts_total} (since the job was created);
 *   <li>gauges {@code tributary_job_records_in_per_second}, {@code _records_out_per_second},
 *       {@code _watermark_lag_millis} (only while the job has a watermark),
 *       {@code _busy_time_ms_per_second}, {@code _backpressured_time_ms_per_second},
 *       {@code _last_checkpoint_duration_millis}, {@code _last_checkpoint_size_bytes}, the same rates,
 *       times and lag per operator as {@code tributary_operator_...}, and {@code tributary_jobs} by
 *       {@code project} and observed {@code state};
 *   <li>{@code tributary_stage_recommended_parallelism} (tagged {@code stage}): what the
 *       autoscaler's model ({@link Autoscaler}) recommends for each stage of a running job within
 *       its bounds (its decisions to rescale go to the decision listener when the job's autoscaler
 *       is enabled);
 *   <li>JVM memory, GC, threads, class loading, CPU and uptime.
 * </ul>
 */
public final class ControlMetrics implements AutoCloseable {
  /** The Prometheus text exposition format the scrape is written in. */
  public static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

  private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final Supplier<Collection<? extends ObservedJob>> jobs;
  private final List<String> stateNames;
  private final Clock clock;
  private final JvmGcMetrics gc = new JvmGcMetrics();
  /** Guarded by this: the counters of each job. */
  private final Map<ObservedJob, List<Meter>> counters = new HashMap<>();
  private final Map<String, MultiGauge> gauges = new HashMap<>();
  /** The autoscaler model of each running job (guarded by this). */
  private final Map<ObservedJob, Autoscaler> autoscalers = new HashMap<>();
  private final java.util.function.BiConsumer<ObservedJob, Autoscaler.Decision> decisions;
  /** Guarded by this: the rows of the last sample. */
  private Rows rows = new Rows();

  /**
   * @param jobs the jobs to sample
   * @param stateNames every observed state's name, for the {@code tributary_jobs} gauge (0 when no job is in it)
   */
  public ControlMetrics(Supplier<Collection<? extends ObservedJob>> jobs, List<String> stateNames, Clock clock) {
    this(jobs, stateNames, clock, (job, decision) -> {});
  }

  /**
   * Like {@link #ControlMetrics(Supplier, List, Clock)}, telling {@code decisions} (on the metrics
   * thread, which it must not hold up) each autoscaler decision that rescales a job.
   */
  public ControlMetrics(Supplier<Collection<? extends ObservedJob>> jobs, List<String> stateNames, Clock clock,
      java.util.function.BiConsumer<ObservedJob, Autoscaler.Decision> decisions) {
    this.decisions = decisions;
    this.jobs = jobs;
    this.stateNames = List.copyOf(stateNames);
    this.clock = clock;
    new JvmMemoryMetrics().bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    new ClassLoaderMetrics().bindTo(registry);
    new ProcessorMetrics().bindTo(registry);
    new UptimeMetrics().bindTo(registry);
    gc.bindTo(registry);
  }

  /** The registry, to add the HTTP server's meters to. */
  public MeterRegistry registry() {
    return registry;
  }

  /** Everything in the Prometheus text format, version 0.0.4. */
  public String scrape() {
    return registry.scrape(CONTENT_TYPE);
  }

  /** Samples every job and refreshes the meters. Metrics thread. */
  public synchronized void sample() {
    Instant now = clock.instant();
    List<ObservedJob> current = new ArrayList<>();
    for (ObservedJob job : jobs.get()) {
      if (!job.retired()) {
        current.add(job);
      }
    }
    for (ObservedJob gone : new ArrayList<>(counters.keySet())) {
      if (!current.contains(gone)) {
        remove(gone);
      }
    }
    Rows next = new Rows();
    Map<String, Map<String, Integer>> states = new HashMap<>();
    for (ObservedJob job : current) {
      job.metrics().sample(now);
      counters.computeIfAbsent(job, this::registerCounters);
      JobMetricsView view = job.metrics().view(null, job.restarts(), now);
      next.add(job, view);
      next.recommend(job, recommend(job, view, now));
      states.computeIfAbsent(job.project(), p -> new HashMap<>()).merge(job.stateName(), 1, Integer::sum);
    }
    rows = next;
    rows.register();
    List<MultiGauge.Row<?>> byState = new ArrayList<>();
    states.forEach((project, counts) -> {
      for (String s : stateNames) {
        byState.add(MultiGauge.Row.of(Tags.of("project", project, "state", s), counts.getOrDefault(s, 0)));
      }
    });
    gauge("tributary.jobs", "Jobs of this control plane by observed state").register(byState, true);
  }

  /**
   * What the autoscaler's model recommends for each stage of {@code job} while it runs (null when it
   * does not, or its rates do not cover every stage yet). A decision to rescale (only when the job's
   * autoscaler is enabled) goes to the decision listener; the gauge shows the recommendation either
   * way.
   */
  private Autoscaler.Decision recommend(ObservedJob job, JobMetricsView view, Instant now) {
    ExecutionPlan plan = job.metrics().plan();
    if (!job.metrics().running() || plan == null) {
      autoscalers.remove(job);
      return null;
    }
    JobSample sample = StageSamples.of(plan, view.operators(), job.parallelismBounds(),
        job.sourceBacklogs(), job.joinsAtOne());
    if (sample == null) {
      return null;
    }
    java.util.OptionalInt slots = job.slotLimit();
    if (slots.isPresent()) {
      sample = sample.withSlots(slots.getAsInt());
    }
    AutoscalerSettings settings = job.autoscalerSettings();
    Autoscaler model = autoscalers.get(job);
    if (model == null || !model.settings().equals(settings)) {
      model = new Autoscaler(settings);
      autoscalers.put(job, model);
    }
    try {
      Autoscaler.Decision d = model.evaluate(sample, now);
      if (d.rescales()) {
        decisions.accept(job, d);
      }
      return d;
    } catch (IllegalArgumentException e) {
      autoscalers.remove(job); // the wall clock went back: start over
      return null;
    }
  }

  /** Removes the meters of {@code job} (deleted). */
  public synchronized void remove(ObservedJob job) {
    autoscalers.remove(job);
    List<Meter> meters = counters.remove(job);
    if (meters != null) {
      meters.forEach(registry::remove);
    }
    if (rows.remove(job)) {
      rows.register();
    }
  }

  private List<Meter> registerCounters(ObservedJob job) {
    Tags tags = Tags.of("project", job.project(), "job", job.name());
    JobMetricsTracker t = job.metrics();
    return List.of(
        counter("tributary.job.records.in", "Records the job's sources read", tags, t,
            JobMetricsTracker::recordsInTotal),
        counter("tributary.job.records.out", "Records the job's sinks wrote", tags, t,
            JobMetricsTracker::recordsOutTotal),
        counter("tributary.job.late.records.dropped", "Records dropped as late", tags, t,
            JobMetricsTracker::lateDroppedTotal),
        counter("tributary.job.malformed.records", "Malformed input records", tags, t,
            JobMetricsTracker::malformedTotal),
        // the job object is held by the manager while it exists (the counter keeps a weak reference)
        counter("tributary.job.restarts", "Automatic restarts after failures since the job was created", tags, job,
            ObservedJob::restarts));
  }

  private <T> Meter counter(String name, String help, Tags tags, T obj, ToDoubleFunction<T> f) {
    return FunctionCounter.builder(name, obj, f).description(help).tags(tags).register(registry);
  }

  private MultiGauge gauge(String name, String help) {
    return gauges.computeIfAbsent(name, n -> MultiGauge.builder(n).description(help).register(registry));
  }

  /** This sample's rows of the job and operator gauges. */
  private final class Rows {
    private final Map<String, List<JobRow>> byName = new HashMap<>();
    private final Map<String, String> help = new HashMap<>();
    private ObservedJob job;

    /** A row and the job it belongs to. */
    private record JobRow(ObservedJob job, MultiGauge.Row<?> row) {}

    void add(ObservedJob of, JobMetricsView v) {
      job = of;
      Tags tags = Tags.of("project", job.project(), "job", job.name());
      row("tributary.job.records.in.per.second", "Records the job's sources read per second", tags,
          v.recordsInPerSecond());
      row("tributary.job.records.out.per.second", "Records the job's sinks wrote per second", tags,
          v.recordsOutPerSecond());
      row("tributary.job.busy.time.ms.per.second", "Busy time of the job's busiest operator", tags,
          v.busyTimeMsPerSecond());
      row("tributary.job.backpressured.time.ms.per.second", "Backpressured time of the job's busiest operator",
          tags, v.backpressuredTimeMsPerSecond());
      if (v.watermarkLagMillis() != null) {
        row("tributary.job.watermark.lag.millis", "Wall clock minus the job's watermark", tags,
            v.watermarkLagMillis());
      }
      if (v.lastCheckpointDurationMillis() != null) {
        row("tributary.job.last.checkpoint.duration.millis", "Duration of the last completed checkpoint", tags,
            v.lastCheckpointDurationMillis());
        row("tributary.job.last.checkpoint.size.bytes", "State size of the last completed checkpoint", tags,
            v.lastCheckpointSizeBytes());
      }
      for (OperatorMetricsView o : v.operators()) {
        Tags ot = tags.and("operator", o.operatorId());
        row("tributary.operator.records.in.per.second", "Records the operator was given per second", ot,
            o.recordsInPerSecond());
        row("tributary.operator.records.out.per.second", "Records the operator emitted (a sink: wrote) per second",
            ot, o.recordsOutPerSecond());
        row("tributary.operator.busy.time.ms.per.second", "Busy time of the operator's busiest subtask", ot,
            o.busyTimeMsPerSecond());
        row("tributary.operator.backpressured.time.ms.per.second",
            "Backpressured time of the operator's most backpressured subtask", ot, o.backpressuredTimeMsPerSecond());
        if (o.watermarkLagMillis() != null) {
          row("tributary.operator.watermark.lag.millis", "Wall clock minus the operator's watermark", ot,
              o.watermarkLagMillis());
        }
      }
    }

    void recommend(ObservedJob of, Autoscaler.Decision decision) {
      if (decision == null) {
        return;
      }
      job = of;
      for (ScalingDecision d : decision.stages()) {
        row("tributary.stage.recommended.parallelism",
            "The parallelism the autoscaler's model recommends for the stage, within the job's bounds",
            Tags.of("project", of.project(), "job", of.name(), "stage", d.stage()), d.recommended());
      }
    }

    private void row(String name, String description, Tags tags, Number value) {
      help.putIfAbsent(name, description);
      byName.computeIfAbsent(name, n -> new ArrayList<>()).add(new JobRow(job, MultiGauge.Row.of(tags, value)));
    }

    /** Drops the rows of {@code gone}; true if there were any. */
    boolean remove(ObservedJob gone) {
      boolean any = false;
      for (List<JobRow> list : byName.values()) {
        any |= list.removeIf(r -> r.job() == gone);
      }
      return any;
    }

    /** Replaces every gauge's rows: series of deleted jobs and operators disappear. */
    void register() {
      help.forEach((name, h) -> gauge(name, h));
      gauges.forEach((name, g) -> {
        if (!name.equals("tributary.jobs")) {
          List<MultiGauge.Row<?>> list = new ArrayList<>();
          for (JobRow r : byName.getOrDefault(name, List.of())) {
            list.add(r.row());
          }
          g.register(list, true);
        }
      });
    }
  }

  @Override
  public void close() {
    gc.close();
    registry.close();
  }
}
