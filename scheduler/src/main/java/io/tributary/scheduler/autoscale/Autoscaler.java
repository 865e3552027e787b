package io.tributary.scheduler.autoscale;

import java.math.BigDecimal;
import java.math.MathContext;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalDouble;
import java.util.stream.Collectors;

/**
 * Sizes every stage of one job from its own measured capacity: the parallelism per stage that
 * would run it at {@link AutoscalerSettings#targetUtilization()} busy under the load its sources
 * must keep up with. A pure state machine: time is what the caller passes in, and nothing runs
 * between calls. One instance per job; not thread-safe.
 *
 * <p>The model, per evaluation, over the samples of the metrics window:
 *
 * <ul>
 *   <li>a stage's <em>true rate</em>, what it could process if it were never idle nor backpressured,
 *       is its input rate divided by its busy fraction; below {@link #MIN_BUSY} busy it is not
 *       measured: the stage stays as it is while the job is backpressured or lagging, and otherwise
 *       is almost idle and wants its minimum (a scale-down, with its delay);
 *   <li>a source's <em>target rate</em> is its input rate plus the growth of its lag plus its
 *       backlog divided by {@link AutoscalerSettings#catchUpDuration()}, so a backlog is drained in
 *       bounded time; a throttled source's is its configured rate;
 *   <li>a stage fed by others has as target the sum, over its inputs, of the input's target times
 *       the input's observed output per input record;
 *   <li>the new parallelism is {@code ceil(p * target / (trueRate * targetUtilization))}, within the
 *       stage's min and max and never above its key groups, raised to the next divisor of the key
 *       groups when that is still within max (every subtask then owns as many key groups).
 * </ul>
 *
 * <p>What holds a recommendation back, in this order: the whole job ignores its metrics for {@link
 * AutoscalerSettings#stabilization()} after any change of parallelism it observes and then collects
 * a full {@link AutoscalerSettings#metricsWindow()}; a stage whose busy fraction is within the band
 * stays while no stage is backpressured above {@link #BACKPRESSURED} and no source is lagging (its
 * target more than {@link #LAGGING} above its input rate); a stage is not scaled down to 1 when the
 * global operators that would then run in its task ({@link JobSample#joinsAtOne}) would make that
 * task busier than the target utilization; a scale-down waits for {@link
 * AutoscalerSettings#scaleDownDelay()} and takes the largest parallelism recommended meanwhile; a
 * stage whose last scale-up was ineffective is not scaled up again by this instance; and the job
 * is rescaled at most {@link AutoscalerSettings#maxDecisionsPerHour()} times in any hour.
 *
 * <p>A decision that rescales assumes nothing about when it is applied: stabilization starts at the
 * decision and again when a sample first shows a stage's new parallelism.
 */
public final class Autoscaler {
  /** The busy fraction below which a stage's true rate is not measured: input over ~0 is noise. */
  static final double MIN_BUSY = 0.01;
  /** The backpressured fraction of a stage above which the band holds no stage of its job. */
  static final double BACKPRESSURED = 0.1;
  /** How far above its input rate a source's target may be before the source counts as lagging. */
  static final double LAGGING = 0.05;
  private static final Duration HOUR = Duration.ofHours(1);

  /**
   * One evaluation of a whole job.
   *
   * @param at the instant passed to {@link #evaluate}
   * @param stages one per stage, in the order of the sample
   */
  public record Decision(Instant at, List<ScalingDecision> stages) {
    public Decision {
      stages = List.copyOf(stages);
    }

    /** Whether any stage is to be rescaled. */
    public boolean rescales() {
      return stages.stream().anyMatch(ScalingDecision::rescales);
    }

    /** The parallelism each stage should run at, by stage id. */
    public Map<Integer, Integer> parallelism() {
      Map<Integer, Integer> m = new LinkedHashMap<>();
      stages.forEach(s -> m.put(s.stageId(), s.to()));
      return m;
    }

    /** The decision for {@code stageId}, or null. */
    public ScalingDecision stage(int stageId) {
      return stages.stream().filter(s -> s.stageId() == stageId).findFirst().orElse(null);
    }
  }

  /** A scale-up to check once its metrics come in. */
  private record Check(int from, int to, double trueRateBefore) {}

  /** The averages of one stage over the metrics window. */
  private record Averages(double busy, double backpressured, double in, double out, double lag) {}

  private static final class StageState {
    int parallelism;
    Instant downWantedSince;
    int downMax;
    Check pending;
    String ineffective;

    StageState(int parallelism) {
      this.parallelism = parallelism;
    }

    void resetDown() {
      downWantedSince = null;
      downMax = 0;
    }
  }

  private final AutoscalerSettings settings;
  private final Deque<JobSample> window = new ArrayDeque<>();
  private final Deque<Instant> windowTimes = new ArrayDeque<>();
  private final Deque<Instant> rescales = new ArrayDeque<>();
  private final Map<Integer, StageState> states = new HashMap<>();
  private Map<Integer, Integer> recommended = Map.of();
  private Instant countingSince;
  private Instant lastRescale;
  private Instant lastEvaluation;

  public Autoscaler(AutoscalerSettings settings) {
    this.settings = Objects.requireNonNull(settings, "settings");
  }

  public AutoscalerSettings settings() {
    return settings;
  }

  /**
   * The parallelism the model asked for at the last evaluation, by stage id, for a gauge (see {@link
   * ScalingDecision#recommended()}); empty before the first.
   */
  public Map<Integer, Integer> recommendedParallelism() {
    return recommended;
  }

  /**
   * Takes in one sample of the job and decides.
   *
   * @param now when {@code sample} was taken; never before the previous call's
   * @return what each stage should run at, and why
   */
  public Decision evaluate(JobSample sample, Instant now) {
    Objects.requireNonNull(sample, "sample");
    Objects.requireNonNull(now, "now");
    if (lastEvaluation != null && now.isBefore(lastEvaluation)) {
      throw new IllegalArgumentException("evaluation at " + now + " is before the previous one at " + lastEvaluation);
    }
    lastEvaluation = now;
    observe(sample, now);
    List<ScalingDecision> held = new ArrayList<>();
    if (lastRescale != null && now.isBefore(lastRescale.plus(settings.stabilization()))) {
      String left = duration(Duration.between(now, lastRescale.plus(settings.stabilization())));
      sample.stages().forEach(s -> held.add(hold(s, s.name() + ": stabilizing after a rescale, " + left + " left")));
      return done(now, held);
    }
    collect(sample, now);
    Duration collected = Duration.between(countingSince, now);
    if (collected.compareTo(settings.metricsWindow()) < 0) {
      String of = duration(collected) + " of " + duration(settings.metricsWindow());
      sample.stages().forEach(s -> held.add(hold(s, s.name() + ": collecting metrics, " + of)));
      return done(now, held);
    }
    return done(now, decide(sample, now));
  }

  /** Resets on a new set of stages, and restarts stabilization on any change of parallelism. */
  private void observe(JobSample sample, Instant now) {
    if (!states.keySet().equals(sample.stages().stream().map(StageSample::stageId).collect(Collectors.toSet()))) {
      states.clear();
      sample.stages().forEach(s -> states.put(s.stageId(), new StageState(s.parallelism())));
      clearWindow();
      return;
    }
    for (StageSample s : sample.stages()) {
      StageState st = states.get(s.stageId());
      if (st.parallelism != s.parallelism()) {
        if (st.pending != null && st.pending.to() != s.parallelism()) {
          st.pending = null;
        }
        st.parallelism = s.parallelism();
        lastRescale = now;
        clearWindow();
        states.values().forEach(StageState::resetDown);
      }
    }
  }

  private void collect(JobSample sample, Instant now) {
    if (countingSince == null) {
      countingSince = now;
    }
    window.addLast(sample);
    windowTimes.addLast(now);
    Instant oldest = now.minus(settings.metricsWindow());
    while (windowTimes.peekFirst().isBefore(oldest)) {
      windowTimes.removeFirst();
      window.removeFirst();
    }
  }

  private void clearWindow() {
    window.clear();
    windowTimes.clear();
    countingSince = null;
  }

  private List<ScalingDecision> decide(JobSample sample, Instant now) {
    Map<Integer, Averages> avg = averages(sample);
    Map<Integer, Double> targets = targets(sample, avg);
    boolean pressured = avg.values().stream().anyMatch(a -> a.backpressured() > BACKPRESSURED)
        || sample.stages().stream().anyMatch(s -> sample.inputs(s.stageId()).isEmpty()
            && targets.get(s.stageId()) > avg.get(s.stageId()).in() * (1 + LAGGING));
    List<ScalingDecision> wanted = new ArrayList<>();
    Map<Integer, Double> trueRates = new HashMap<>();
    for (StageSample s : sample.stages()) {
      Averages a = avg.get(s.stageId());
      trueRates.put(s.stageId(), a.busy() >= MIN_BUSY ? a.in() / a.busy() : Double.NaN);
    }
    Map<Integer, Joining> joining = joining(sample, avg, targets, trueRates);
    for (StageSample s : sample.stages()) {
      wanted.add(stage(s, avg.get(s.stageId()), trueRates.get(s.stageId()), targets.get(s.stageId()),
          joining.get(s.stageId()), pressured, now));
    }
    if (sample.slots() != null) {
      wanted = fitted(wanted, sample.slots());
    }
    boolean rescale = wanted.stream().anyMatch(ScalingDecision::rescales);
    if (!rescale) {
      return wanted;
    }
    while (!rescales.isEmpty() && !rescales.peekFirst().isAfter(now.minus(HOUR))) {
      rescales.removeFirst();
    }
    String why = !settings.enabled() ? "autoscaler disabled"
        : rescales.size() >= settings.maxDecisionsPerHour()
            ? "decision cap, " + rescales.size() + " rescales in the last hour" : null;
    if (why != null) {
      return wanted.stream().map(d -> d.rescales() ? new ScalingDecision(d.stageId(), d.stage(), d.from(), d.from(),
          d.recommended(), d.explanation() + " held: " + why) : d).toList();
    }
    rescales.addLast(now);
    lastRescale = now;
    clearWindow();
    for (ScalingDecision d : wanted) {
      StageState st = states.get(d.stageId());
      st.resetDown();
      if (d.to() > d.from()) {
        st.pending = new Check(d.from(), d.to(), trueRates.get(d.stageId()));
      }
    }
    return wanted;
  }

  /**
   * {@code wanted} trimmed to a pool of {@code slots} slots: while its stages would run more tasks
   * than that, the stage with the largest scale-up left gives up one subtask (its explanation says
   * so). Scale-downs and stages that keep their parallelism are as they were; a job that already
   * runs more tasks than the pool has (its slots shrank) gets no scale-up at all.
   */
  static List<ScalingDecision> fitted(List<ScalingDecision> wanted, int slots) {
    int[] to = wanted.stream().mapToInt(ScalingDecision::to).toArray();
    int tasks = java.util.Arrays.stream(to).sum();
    while (tasks > slots) {
      int widest = -1;
      for (int i = 0; i < to.length; i++) {
        ScalingDecision d = wanted.get(i);
        if (to[i] > d.from() && (widest < 0 || to[i] - d.from() > to[widest] - wanted.get(widest).from())) {
          widest = i;
        }
      }
      if (widest < 0) {
        break;
      }
      to[widest]--;
      tasks--;
    }
    List<ScalingDecision> out = new ArrayList<>(wanted.size());
    for (int i = 0; i < to.length; i++) {
      ScalingDecision d = wanted.get(i);
      out.add(to[i] == d.to() ? d : new ScalingDecision(d.stageId(), d.stage(), d.from(), to[i], d.recommended(),
          d.explanation() + (to[i] == d.from() ? " held" : " trimmed to " + to[i]) + ": the worker pool has "
              + slots + " slots in all"));
    }
    return out;
  }

  /**
   * What would run in a stage's task beside its own work at parallelism 1: the stages that join it
   * there, by name, and the busy fraction of one subtask their work at their targets takes.
   */
  private record Joining(String names, double busy) {}

  /** By stage id, the work of the stages that would join it at 1 ({@link JobSample#joinsAtOne}). */
  private static Map<Integer, Joining> joining(JobSample sample, Map<Integer, Averages> avg,
      Map<Integer, Double> targets, Map<Integer, Double> trueRates) {
    Map<Integer, Joining> out = new HashMap<>();
    sample.joinsAtOne().forEach((stage, into) -> {
      StageSample j = sample.stage(stage);
      double trueRate = trueRates.get(stage);
      // at its target rate, on one subtask; almost idle, as busy as now
      double busy = Double.isNaN(trueRate) ? avg.get(stage).busy() * j.parallelism()
          : targets.get(stage) * j.parallelism() / trueRate;
      out.merge(into, new Joining(j.name(), busy),
          (x, y) -> new Joining(x.names() + ", " + y.names(), x.busy() + y.busy()));
    });
    return out;
  }

  /** The decision for one stage on its own: every rule but the decision cap. */
  private ScalingDecision stage(StageSample s, Averages a, double trueRate, double target, Joining joining,
      boolean pressured, Instant now) {
    StageState st = states.get(s.stageId());
    int p = s.parallelism();
    boolean unsized = Double.isNaN(trueRate);
    if (unsized && pressured) {
      st.resetDown();
      return hold(s, String.format("%s: busy %.2f, no rate to size by", s.name(), a.busy()));
    }
    int rec;
    String numbers;
    if (unsized) {
      // almost never busy while nothing waits: its minimum is plenty, and keeping more would hold
      // the whole job up when the other stages want fewer
      rec = fit(s.min(), s);
      numbers = String.format("%s: busy %.2f, almost idle", s.name(), a.busy());
    } else {
      checkScaleUp(st, trueRate);
      int wanted = (int) Math.ceil(p * target / (trueRate * settings.targetUtilization()) - 1e-9);
      rec = fit(wanted, s);
      numbers = String.format("%s: busy %.2f, true rate %s, target %s", s.name(), a.busy(), rate(trueRate),
          rate(target));
      if (wanted > rec && s.maxReason() != null) {
        numbers += ", at most " + s.max() + " (" + s.maxReason() + ")";
      }
    }
    if (rec == 1 && p > 1 && joining != null) {
      // at 1 the stage would also run the global operators after it, in the same task: if that is
      // more than one subtask should take, staying split is the smaller parallelism that fits
      double atOne = (unsized ? a.busy() * p : p * target / trueRate) + joining.busy();
      if (atOne > settings.targetUtilization()) {
        rec = fit(2, s);
        numbers += String.format(", busy %.2f at 1 with %s", atOne, joining.names());
      }
    }
    double lo = settings.targetUtilization() - settings.utilizationBand();
    double hi = settings.targetUtilization() + settings.utilizationBand();
    boolean inBounds = p >= s.min() && p <= Math.min(s.max(), s.keyGroups());
    if (!pressured && inBounds && a.busy() >= lo && a.busy() <= hi) {
      st.resetDown();
      return hold(s, String.format("%s: within band %.2f..%.2f", numbers, lo, hi));
    }
    String model = numbers + " → " + p + " → " + rec;
    if (rec > p) {
      st.resetDown();
      if (st.ineffective != null) {
        return new ScalingDecision(s.stageId(), s.name(), p, p, rec, model + " held: " + st.ineffective
            + ", not scaling up again");
      }
      return new ScalingDecision(s.stageId(), s.name(), p, rec, rec, model);
    }
    if (rec == p) {
      st.resetDown();
      return new ScalingDecision(s.stageId(), s.name(), p, p, rec, model + ": as now");
    }
    if (st.downWantedSince == null) {
      st.downWantedSince = now;
    }
    st.downMax = Math.max(st.downMax, rec);
    Duration wantedFor = Duration.between(st.downWantedSince, now);
    if (wantedFor.compareTo(settings.scaleDownDelay()) < 0) {
      return new ScalingDecision(s.stageId(), s.name(), p, p, rec, model + " held: scale-down wanted for "
          + duration(wantedFor) + " of " + duration(settings.scaleDownDelay()));
    }
    int to = st.downMax;
    String how = to == rec ? "" : " (" + to + ", the largest wanted in the last " + duration(wantedFor) + ")";
    return new ScalingDecision(s.stageId(), s.name(), p, to, rec, numbers + " → " + p + " → " + to + how);
  }

  /** Marks the stage ineffective if its last scale-up raised its true rate by too little. */
  private void checkScaleUp(StageState st, double trueRate) {
    Check c = st.pending;
    if (c == null) {
      return;
    }
    st.pending = null;
    double expected = c.trueRateBefore() * c.to() / c.from();
    double rise = trueRate - c.trueRateBefore();
    if (rise < settings.ineffectiveScaleUpThreshold() * (expected - c.trueRateBefore())) {
      st.ineffective = "ineffective scale-up (" + c.from() + " → " + c.to() + " took the true rate from "
          + rate(c.trueRateBefore()) + " to " + rate(trueRate) + ", expected " + rate(expected) + ")";
    }
  }

  /**
   * {@code wanted} within the stage's bounds, raised to the smallest divisor of its key groups that
   * is still within them. The upper bound is the smaller of max and the key groups, and wins over a
   * min above the key groups: a subtask without a key group would have nothing to do.
   */
  static int fit(int wanted, StageSample s) {
    int upper = Math.min(s.max(), s.keyGroups());
    int p = Math.max(Math.min(s.min(), upper), Math.min(wanted, upper));
    for (int d = p; d <= upper; d++) {
      if (s.keyGroups() % d == 0) {
        return d;
      }
    }
    return p;
  }

  private Map<Integer, Averages> averages(JobSample last) {
    Map<Integer, Averages> out = new HashMap<>();
    int n = window.size();
    for (StageSample s : last.stages()) {
      double busy = 0;
      double bp = 0;
      double in = 0;
      double outRate = 0;
      double lag = 0;
      for (JobSample j : window) {
        StageSample x = j.stage(s.stageId());
        busy += x.busy();
        bp += x.backpressured();
        in += x.recordsInPerSecond();
        outRate += x.recordsOutPerSecond();
        lag += x.lagGrowthRate();
      }
      out.put(s.stageId(), new Averages(busy / n, bp / n, in / n, outRate / n, lag / n));
    }
    return out;
  }

  /** The rate each stage must keep up with, sources first. */
  private Map<Integer, Double> targets(JobSample sample, Map<Integer, Averages> avg) {
    Map<Integer, Double> targets = new HashMap<>();
    for (StageSample s : sample.topologicalOrder()) {
      List<JobSample.Edge> inputs = sample.inputs(s.stageId());
      double t = 0;
      if (inputs.isEmpty()) {
        OptionalDouble configured = s.configuredRate();
        Averages a = avg.get(s.stageId());
        t = configured.isPresent() ? configured.getAsDouble()
            : Math.max(0, a.in() + a.lag() + s.backlog() / seconds(settings.catchUpDuration()));
      }
      for (JobSample.Edge e : inputs) {
        Averages up = avg.get(e.from());
        t += targets.get(e.from()) * (up.in() > 0 ? up.out() / up.in() : 0);
      }
      targets.put(s.stageId(), t);
    }
    return targets;
  }

  private Decision done(Instant now, List<ScalingDecision> stages) {
    Map<Integer, Integer> r = new LinkedHashMap<>();
    stages.forEach(d -> r.put(d.stageId(), d.recommended()));
    recommended = Map.copyOf(r);
    return new Decision(now, stages);
  }

  private static ScalingDecision hold(StageSample s, String why) {
    int p = s.parallelism();
    return new ScalingDecision(s.stageId(), s.name(), p, p, p, why + "; stays at " + p);
  }

  private static double seconds(Duration d) {
    return d.toNanos() / 1e9;
  }

  /** Three significant digits: {@code 41.2k/s}. */
  static String rate(double perSecond) {
    String unit = "";
    double v = perSecond;
    if (Math.abs(v) >= 1e6) {
      v /= 1e6;
      unit = "M";
    } else if (Math.abs(v) >= 1e3) {
      v /= 1e3;
      unit = "k";
    }
    return new BigDecimal(v).round(new MathContext(3)).stripTrailingZeros().toPlainString() + unit + "/s";
  }

  /** {@code 1m30s}, {@code 50s}, {@code 5m}. */
  static String duration(Duration d) {
    long s = d.toSeconds();
    long h = s / 3600;
    long m = s % 3600 / 60;
    long sec = s % 60;
    String out = (h > 0 ? h + "h" : "") + (m > 0 ? m + "m" : "") + (sec > 0 ? sec + "s" : "");
    return out.isEmpty() ? "0s" : out;
  }
}
