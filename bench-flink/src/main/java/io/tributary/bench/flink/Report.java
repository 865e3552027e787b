package io.tributary.bench.flink;

import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/** The lines {@link FlinkBench} prints: one per run, then medians and ratios per query. */
final class Report {
  private Report() {}

  /** One measured run. */
  static void run(String query, String engine, int number, long events, Child.Figures f) {
    System.out.printf(Locale.ROOT, "%-13s %-9s run %d  %,12.0f events/s  %7.2f s wall  %7.2f s CPU  %6.2f CPU-s/M  %,12d results%n",
        query, engine, number, events / f.wallSeconds(), f.wallSeconds(), f.cpuSeconds(), perMillion(f, events),
        f.results());
  }

  /**
   * Medians of both engines, the generation's cost, and the ratios; returns whether every run of
   * both engines made the same number of results.
   */
  static boolean summary(String query, long events, Child.Figures gen, List<Child.Figures> tributary,
      List<Child.Figures> flink) {
    double genPerMillion = gen.cpuSeconds() * 1e6 / gen.results();
    double tCpu = median(tributary, f -> perMillion(f, events));
    double fCpu = median(flink, f -> perMillion(f, events));
    double tRate = median(tributary, f -> events / f.wallSeconds());
    double fRate = median(flink, f -> events / f.wallSeconds());
    medians(query, "tributary", tRate, tCpu, genPerMillion, tributary);
    medians(query, "flink", fRate, fCpu, genPerMillion, flink);
    System.out.printf(Locale.ROOT, "%-13s %-9s        %,12.0f events/s  %6.2f CPU-s/M  (generating the records alone)%n",
        query, "gen", gen.results() / gen.wallSeconds(), genPerMillion);
    long expected = tributary.get(0).results();
    boolean equal = tributary.stream().allMatch(f -> f.results() == expected)
        && flink.stream().allMatch(f -> f.results() == expected);
    System.out.printf(Locale.ROOT, "%-13s Tributary/Flink per CPU-second %.2f (net of generation %.2f; at most %.2f"
            + " with it, were the rest free), events/s %.2f; results %s%n%n", query, fCpu / tCpu,
        (fCpu - genPerMillion) / (tCpu - genPerMillion), fCpu / genPerMillion, tRate / fRate,
        equal ? "equal (" + String.format(Locale.ROOT, "%,d", expected) + ")" : "DIFFER: see the runs above");
    return equal;
  }

  /** One engine's medians line: events/s, CPU-s/M with and without generation, cores busy. */
  private static void medians(String query, String engine, double rate, double cpuPerMillion, double genPerMillion,
      List<Child.Figures> runs) {
    System.out.printf(Locale.ROOT, "%-13s %-9s median %,12.0f events/s  %6.2f CPU-s/M  %6.2f net CPU-s/M"
        + "  %4.2f cores busy%n", query, engine, rate, cpuPerMillion, cpuPerMillion - genPerMillion,
        median(runs, Report::coresBusy));
  }

  /** CPU time over wall time: how many cores the run kept busy on average. */
  private static double coresBusy(Child.Figures f) {
    return f.cpuSeconds() / f.wallSeconds();
  }

  private static double perMillion(Child.Figures f, long events) {
    return f.cpuSeconds() * 1e6 / events;
  }

  private static double median(List<Child.Figures> runs, ToDoubleFunction<Child.Figures> value) {
    double[] v = runs.stream().mapToDouble(value).sorted().toArray();
    return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
  }
}
