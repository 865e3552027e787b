package io.tributary.scheduler.spec.sql;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.plan.ExecutionPlan;
import io.tributary.scheduler.planner.Planner;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Every query of examples/nexmark compiles to a spec that plans, writing into one blackhole sink. */
class NexmarkExamplesTest {
  private static final Path EXAMPLES = Path.of("../examples/nexmark");

  static List<Path> queries() throws IOException {
    try (Stream<Path> files = Files.list(EXAMPLES)) {
      return files.filter(f -> f.toString().endsWith(".sql")).sorted().toList();
    }
  }

  @Test
  void everyQueryCompilesAndPlans() throws IOException {
    List<Path> queries = queries();
    assertThat(queries).extracting(q -> q.getFileName().toString())
        .contains("q0.sql", "q1.sql", "q2.sql", "q4.sql", "q9.sql", "q11.sql", "q14.sql", "q18.sql", "q19.sql", "q21.sql", "q22.sql");
    for (Path q : queries) {
      String name = q.getFileName().toString().replace(".sql", "");
      SqlJob job = SqlJobs.compile(Files.readString(q), name);
      ExecutionPlan plan = Planner.plan(job.spec());
      assertThat(plan.jobName()).as(name).isEqualTo(name);
      assertThat(job.spec().sinks().values()).as(name).singleElement()
          .satisfies(sink -> assertThat(sink.type()).isEqualTo("blackhole"));
      assertThat(job.spec().sources().values()).as(name).allSatisfy(s -> {
        assertThat(s.type()).isEqualTo("nexmark");
        assertThat(s.eventTime().maxOutOfOrdernessMillis()).isEqualTo(4000);
      });
    }
  }
}
