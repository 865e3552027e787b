package io.tributary.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The module rules of {@code docs/design.md} ("Modules and the direction of their dependencies"),
 * checked on the compiled classes of every module (main code only):
 *
 * <pre>
 *   api -> scheduler -> worker-api <- worker/runtime -> state-forst
 * </pre>
 *
 * <ul>
 *   <li>every module's classes live under its own package roots, and no package is split over
 *       modules;
 *   <li>the scheduler knows workers only through the worker protocol: it does not reach the runtime,
 *       the connectors, forst or anything that composes them;
 *   <li>the api reaches the runtime, the connectors and forst only in its composition root
 *       ({@code io.tributary.boot});
 *   <li>state knows nothing of the worker or the scheduler; the worker API nothing of what
 *       implements it;
 *   <li>under {@code -Pflink}, bench-flink knows Tributary only by its connectors and worker API.
 * </ul>
 */
class ModuleRulesTest {
  /** Module -> the package roots its classes live under (a root covers its subpackages). */
  static final Map<String, List<String>> ROOTS = Map.ofEntries(
      Map.entry("state-api", List.of("io.tributary.state", "io.tributary.state.heap", "io.tributary.state.store")),
      Map.entry("forst", List.of("io.tributary.state.forst")),
      Map.entry("worker-api", List.of("io.tributary.stream", "io.tributary.plan", "io.tributary.connect",
          "io.tributary.checkpoint", "io.tributary.protocol")),
      Map.entry("expressions", List.of("io.tributary.expr")),
      Map.entry("connectors", List.of("io.tributary.connectors")),
      Map.entry("runtime", List.of("io.tributary.worker")),
      Map.entry("kubernetes", List.of("io.tributary.worker.kubernetes")),
      Map.entry("testkit", List.of("io.tributary.testkit")),
      Map.entry("scheduler", List.of("io.tributary.scheduler")),
      Map.entry("openapi-client", List.of("io.tributary.client")),
      Map.entry("api", List.of("io.tributary.server", "io.tributary.cli", "io.tributary.boot", "io.tributary.api")),
      Map.entry("bench", List.of("io.tributary.bench")),
      Map.entry("bench-flink", List.of("io.tributary.bench.flink")));

  /** Modules built only under a Maven profile ({@code -Pflink}): checked when the build has them. */
  static final Set<String> OPTIONAL = Set.of("bench-flink");

  /** A module's jar name ({@code tributary-<name>-<version>.jar}) or its directory in the repository. */
  private static final Map<String, String> MODULE_BY_ARTIFACT = Map.ofEntries(
      Map.entry("tributary-state-api", "state-api"), Map.entry("state-forst/state-api", "state-api"),
      Map.entry("tributary-state-forst", "forst"), Map.entry("state-forst/forst", "forst"),
      Map.entry("tributary-worker-api", "worker-api"), Map.entry("worker/worker-api", "worker-api"),
      Map.entry("tributary-expressions", "expressions"), Map.entry("worker/expressions", "expressions"),
      Map.entry("tributary-connectors", "connectors"), Map.entry("worker/connectors", "connectors"),
      Map.entry("tributary-worker", "runtime"), Map.entry("worker/runtime", "runtime"),
      Map.entry("tributary-worker-kubernetes", "kubernetes"), Map.entry("worker/kubernetes", "kubernetes"),
      Map.entry("tributary-testkit", "testkit"), Map.entry("worker/testkit", "testkit"),
      Map.entry("tributary-scheduler", "scheduler"), Map.entry("scheduler", "scheduler"),
      Map.entry("tributary-openapi-client", "openapi-client"), Map.entry("openapi/client", "openapi-client"),
      Map.entry("tributary-api", "api"), Map.entry("api", "api"),
      Map.entry("tributary-bench", "bench"), Map.entry("bench", "bench"),
      Map.entry("tributary-bench-flink", "bench-flink"), Map.entry("bench-flink", "bench-flink"));

  private static final String RUNTIME = "io.tributary.worker..";
  private static final String CONNECTORS = "io.tributary.connectors..";
  private static final String FORST = "io.tributary.state.forst..";

  static JavaClasses classes;

  @BeforeAll
  static void importClasses() {
    classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages("io.tributary");
  }

  /** The module {@code c} was compiled in, from where its class file was loaded; null if unknown. */
  static String moduleOf(JavaClass c) {
    String uri = c.getSource().map(s -> s.getUri().toString()).orElse("");
    String best = null;
    int bestLength = -1;
    for (Map.Entry<String, String> e : MODULE_BY_ARTIFACT.entrySet()) {
      String key = e.getKey();
      boolean jar = key.startsWith("tributary-") && uri.contains("/" + key + "-0.");
      boolean dir = uri.contains("/" + key + "/target/classes/");
      if ((jar || dir) && key.length() > bestLength) {
        best = e.getValue();
        bestLength = key.length();
      }
    }
    return best;
  }

  @Test
  void theImportSeesEveryModule() {
    Set<String> seen = new TreeSet<>();
    for (JavaClass c : classes) {
      String m = moduleOf(c);
      if (m != null) {
        seen.add(m);
      }
    }
    Set<String> required = new TreeSet<>(ROOTS.keySet());
    required.removeAll(OPTIONAL);
    assertThat(seen).as("modules whose classes were imported").containsAll(required);
    assertThat(seen).as("modules whose classes were imported").isSubsetOf(ROOTS.keySet());
  }

  @Test
  void everyModulesClassesLiveUnderItsRootsAndNoPackageIsSplit() {
    Map<String, Set<String>> modulesByPackage = new TreeMap<>();
    List<String> misplaced = new ArrayList<>();
    for (JavaClass c : classes) {
      String m = moduleOf(c);
      if (m == null) {
        misplaced.add(c.getName() + " (no known module: " + c.getSource() + ")");
        continue;
      }
      modulesByPackage.computeIfAbsent(c.getPackageName(), p -> new TreeSet<>()).add(m);
      if (!underRoots(c.getPackageName(), m)) {
        misplaced.add(c.getName() + " is in module " + m + ", whose roots are " + ROOTS.get(m));
      }
    }
    assertThat(misplaced).as("classes outside their module's package roots").isEmpty();
    assertThat(modulesByPackage.entrySet().stream().filter(e -> e.getValue().size() > 1)
        .map(e -> e.getKey() + " " + e.getValue()).toList()).as("packages split over modules").isEmpty();
  }

  /** Whether {@code pkg} is under one of {@code module}'s roots and not under a longer root of another module. */
  static boolean underRoots(String pkg, String module) {
    String owner = null;
    int longest = -1;
    for (Map.Entry<String, List<String>> e : ROOTS.entrySet()) {
      for (String root : e.getValue()) {
        boolean covers = pkg.equals(root) || pkg.startsWith(root + ".");
        boolean exactOnly = e.getKey().equals("state-api"); // state-api's roots do not cover io.tributary.state.forst
        if (exactOnly) {
          covers = pkg.equals(root);
        }
        if (covers && root.length() > longest) {
          owner = e.getKey();
          longest = root.length();
        }
      }
    }
    return module.equals(owner);
  }

  @Test
  void theSchedulerKnowsWorkersOnlyThroughTheWorkerProtocol() {
    check(noClasses().that().resideInAPackage("io.tributary.scheduler..")
        .should().dependOnClassesThat().resideInAnyPackage(RUNTIME, CONNECTORS, FORST, "io.tributary.testkit..",
            "io.tributary.server..", "io.tributary.cli..", "io.tributary.boot..", "io.tributary.bench..")
        .because("the scheduler runs jobs through io.tributary.protocol; the composition root picks the workers"));
  }

  @Test
  void theApiReachesTheRuntimeOnlyInItsCompositionRoot() {
    check(noClasses().that().resideInAnyPackage("io.tributary.server..", "io.tributary.cli..", "io.tributary.api..")
        .should().dependOnClassesThat().resideInAnyPackage(RUNTIME, CONNECTORS, FORST)
        .because("only io.tributary.boot composes the runtime, its connectors and its state backends"));
  }

  @Test
  void stateKnowsNothingOfTheWorkerOrTheControlPlane() {
    check(noClasses().that().resideInAPackage("io.tributary.state..")
        .should().dependOnClassesThat().resideInAnyPackage(RUNTIME, CONNECTORS, "io.tributary.stream..",
            "io.tributary.plan..", "io.tributary.connect..", "io.tributary.checkpoint..", "io.tributary.protocol..",
            "io.tributary.expr..", "io.tributary.scheduler..", "io.tributary.server..", "io.tributary.cli..",
            "io.tributary.boot..")
        .because("state is a library the worker uses"));
  }

  @Test
  void theWorkerApiKnowsNothingOfWhatImplementsIt() {
    check(noClasses().that().resideInAnyPackage("io.tributary.stream..", "io.tributary.plan..",
            "io.tributary.connect..", "io.tributary.checkpoint..", "io.tributary.protocol..")
        .should().dependOnClassesThat().resideInAnyPackage(RUNTIME, CONNECTORS, FORST, "io.tributary.expr..",
            "io.tributary.scheduler..", "io.tributary.server..", "io.tributary.cli..", "io.tributary.boot..")
        .because("workers and the control plane meet at the worker API"));
  }

  @Test
  void theRuntimeKnowsNothingOfTheControlPlane() {
    check(noClasses().that().resideInAnyPackage(RUNTIME, CONNECTORS, "io.tributary.expr..", "io.tributary.testkit..")
        .should().dependOnClassesThat().resideInAnyPackage("io.tributary.scheduler..", "io.tributary.server..",
            "io.tributary.cli..", "io.tributary.boot..", "io.tributary.bench..")
        .because("a worker is told what to run through the worker protocol"));
  }

  @Test
  void onlyTheCompositionRootPicksTheKubernetesPool() {
    check(noClasses().that().resideOutsideOfPackages("io.tributary.worker.kubernetes..", "io.tributary.boot..")
        .should().dependOnClassesThat().resideInAPackage("io.tributary.worker.kubernetes..")
        .because("the runtime and the control plane know worker pools only as WorkerPool; io.tributary.boot wires "
            + "the Kubernetes one"));
  }

  @Test
  void nothingOfTheProductDependsOnTheBenchmarks() {
    check(noClasses().that(notIn("io.tributary.bench.."))
        .should().dependOnClassesThat().resideInAPackage("io.tributary.bench..")
        .because("benchmarks are never part of the product"));
  }

  @Test
  void flinksSideKnowsTributaryOnlyByItsConnectors() {
    check(noClasses().that().resideInAPackage("io.tributary.bench.flink..")
        .should().dependOnClassesThat().resideInAnyPackage(RUNTIME, FORST, "io.tributary.scheduler..",
            "io.tributary.server..", "io.tributary.cli..", "io.tributary.boot..", "io.tributary.bench")
        .because("bench-flink runs Flink on Tributary's generators alone (its classpath has no runtime, and Flink's"
            + " RocksDB cannot share one with forst's); Tributary's runs are the bench module's, in JVMs of their own")
        .allowEmptyShould(true)); // without -Pflink the build has no bench-flink
  }

  private static DescribedPredicate<JavaClass> notIn(String pattern) {
    return DescribedPredicate.not(JavaClass.Predicates.resideInAPackage(pattern));
  }

  private static void check(ArchRule rule) {
    rule.check(classes);
  }
}
