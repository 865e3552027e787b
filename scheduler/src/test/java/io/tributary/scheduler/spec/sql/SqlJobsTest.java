package io.tributary.scheduler.spec.sql;

import static io.tributary.scheduler.spec.sql.SqlTexts.job;
import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.plan.ExecutionPlan;
import io.tributary.scheduler.planner.Planner;
import io.tributary.scheduler.spec.CheckpointSpec;
import io.tributary.scheduler.spec.EventTimeSpec;
import io.tributary.scheduler.spec.JobSpec;
import io.tributary.scheduler.spec.JobSpecs;
import io.tributary.scheduler.spec.OperatorSpec;
import io.tributary.scheduler.spec.ParallelismSpec;
import io.tributary.scheduler.spec.WindowSpec;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SqlJobsTest {
  @Test
  void aFilterAndProjectionIsOneTransformIntoTheSink() {
    JobSpec spec = SqlJobs.compile(job("auction BIGINT, price DOUBLE, dateTime TIMESTAMP(3)", """
        INSERT INTO results SELECT auction, 0.908 * price, dateTime FROM bid WHERE MOD(auction, 123) = 0;
        """), "q").spec();

    assertThat(spec.name()).isEqualTo("q");
    assertThat(spec.sources().get("bid").type()).isEqualTo("nexmark");
    assertThat(spec.sources().get("bid").properties()).containsOnly(Map.entry("kind", "bid"),
        Map.entry("events", 1000L));
    assertThat(spec.sources().get("bid").eventTime()).isEqualTo(new EventTimeSpec("dateTime", 4000, 0));
    assertThat(spec.operators()).hasSize(1);
    OperatorSpec op = spec.operators().get(0);
    assertThat(op.input()).isEqualTo("bid");
    assertThat(op.filter()).isEqualTo("(MOD(\"auction\", 123) = 0)");
    assertThat(op.select()).containsExactly(Map.entry("auction", "\"auction\""),
        Map.entry("price", "(0.908 * \"price\")"), Map.entry("dateTime", "\"dateTime\""));
    assertThat(spec.sinks().get("results").input()).isEqualTo(op.id());
  }

  @Test
  void aTumblingGroupByIsAKeyedWindowAndAProjectionOfItsResults() {
    JobSpec spec = SqlJobs.compile(job("auction BIGINT, num BIGINT, total BIGINT, window_end TIMESTAMP(3)", """
        INSERT INTO results
        SELECT auction, COUNT(*) AS num, SUM(price), window_end
        FROM TABLE(TUMBLE(TABLE bid, DESCRIPTOR(dateTime), INTERVAL '10' SECOND))
        GROUP BY auction, window_start, window_end;
        """), "q").spec();

    assertThat(spec.operators()).hasSize(2);
    OperatorSpec window = spec.operators().get(0);
    assertThat(window.input()).isEqualTo("bid");
    assertThat(window.keyBy()).containsExactly("auction");
    assertThat(window.window()).isEqualTo(new WindowSpec("tumbling", 10_000, 0, 0, 0, null, null));
    assertThat(window.aggregate()).containsExactly(Map.entry("num", "count(*)"), Map.entry("EXPR$2", "sum(\"price\")"));
    OperatorSpec into = spec.operators().get(1);
    assertThat(into.select()).containsExactly(Map.entry("auction", "\"auction\""), Map.entry("num", "\"num\""),
        Map.entry("total", "\"EXPR$2\""), Map.entry("window_end", "\"window_end\""));
  }

  @Test
  void aFilterAndComputedKeysGoIntoATransformBeforeTheWindow() {
    JobSpec spec = SqlJobs.compile(job("bucket BIGINT, top BIGINT", """
        INSERT INTO results
        SELECT auction % 10, MAX(price)
        FROM TABLE(HOP(TABLE bid, DESCRIPTOR(dateTime), INTERVAL '2' SECOND, INTERVAL '10' SECOND))
        WHERE price > 100
        GROUP BY auction % 10, window_start, window_end;
        """), "q").spec();

    OperatorSpec before = spec.operators().get(0);
    assertThat(before.filter()).isEqualTo("(\"price\" > 100)");
    assertThat(before.select()).containsExactly(Map.entry("EXPR$0", "MOD(\"auction\", 10)"),
        Map.entry("price", "\"price\""));
    OperatorSpec window = spec.operators().get(1);
    assertThat(window.input()).isEqualTo(before.id());
    assertThat(window.keyBy()).containsExactly("EXPR$0");
    assertThat(window.window()).isEqualTo(new WindowSpec("sliding", 10_000, 2_000, 0, 0, null, null));
  }

  @Test
  void aSessionIsPerTheKeysOfItsDescriptor() {
    JobSpec spec = SqlJobs.compile(job("bidder BIGINT, bids BIGINT, window_start TIMESTAMP(3)", """
        INSERT INTO results
        SELECT bidder, COUNT(*), window_start
        FROM TABLE(SESSION(TABLE bid, DESCRIPTOR(dateTime), DESCRIPTOR(bidder), INTERVAL '10' SECOND))
        GROUP BY bidder, window_start, window_end;
        """), "q").spec();

    assertThat(spec.operators().get(0).keyBy()).containsExactly("bidder");
    assertThat(spec.operators().get(0).window()).isEqualTo(new WindowSpec("session", 0, 0, 10_000, 0, null, null));
  }

  @Test
  void groupingWindowResultsByTheirBoundsCascadesIntoATumblingWindowOfTheSlide() {
    JobSpec spec = SqlJobs.compile(job("window_start TIMESTAMP(3), window_end TIMESTAMP(3), top BIGINT", """
        INSERT INTO results
        SELECT starttime, endtime, MAX(num) FROM (
          SELECT auction, COUNT(*) AS num, window_start AS starttime, window_end AS endtime
          FROM TABLE(HOP(TABLE bid, DESCRIPTOR(dateTime), INTERVAL '2' SECOND, INTERVAL '10' SECOND))
          GROUP BY auction, window_start, window_end)
        GROUP BY starttime, endtime;
        """), "q").spec();

    OperatorSpec counts = spec.operators().get(0);
    OperatorSpec top = spec.operators().get(1);
    assertThat(top.input()).isEqualTo(counts.id());
    assertThat(top.isGlobalWindow()).isTrue();
    assertThat(top.window()).isEqualTo(new WindowSpec("tumbling", 2_000, 0, 0, 0, null, null));
    assertThat(top.aggregate()).containsExactly(Map.entry("EXPR$2", "max(\"num\")"));
    OperatorSpec starts = spec.operators().get(2);
    assertThat(starts.select()).containsEntry("window_start", "(\"window_end\" - 10000)");
  }

  @Test
  void setStatementsAreTheSpecsSettings() {
    JobSpec spec = SqlJobs.compile("""
        SET 'name' = 'clicks';
        SET 'parallelism' = '3';
        SET 'checkpoints.interval' = '10s';
        SET state.backend = 'heap';
        """ + job("auction BIGINT", "INSERT INTO results SELECT auction FROM bid;"), "ignored").spec();

    assertThat(spec.name()).isEqualTo("clicks");
    assertThat(spec.parallelism()).isEqualTo(ParallelismSpec.fixed(3));
    assertThat(spec.checkpoints()).isEqualTo(new CheckpointSpec(10_000, "exactly-once"));
    assertThat(spec.state().backend()).isEqualTo("heap");
  }

  @Test
  void optionsAreTypedAsTheConnectorsPropertiesExpect() {
    JobSpec spec = SqlJobs.compile(SqlTexts.BIDS + """
        CREATE TABLE written (auction BIGINT) WITH ('connector' = 'file', 'path' = '/tmp/out', 'changelog' = 'true');
        INSERT INTO written SELECT auction FROM bid;
        """, "q").spec();

    assertThat(spec.sinks().get("written").properties()).containsOnly(Map.entry("path", "/tmp/out"),
        Map.entry("changelog", true));
  }

  @Test
  void viewsAreReadLikeTables() {
    JobSpec spec = SqlJobs.compile(job("auction BIGINT, price BIGINT", """
        CREATE VIEW expensive AS SELECT auction, price FROM bid WHERE price > 1000;
        INSERT INTO results SELECT auction, price FROM expensive WHERE auction > 5;
        """), "q").spec();

    assertThat(spec.operators()).hasSize(1);
    assertThat(spec.operators().get(0).filter()).contains("> 1000").contains("> 5");
  }

  @Test
  void theSameQueryInTwoStatementsRunsOnce() {
    JobSpec spec = SqlJobs.compile(BIDS_TWO_SINKS, "q").spec();

    assertThat(spec.operators()).hasSize(2);
    assertThat(spec.operators().get(0).window()).isNotNull();
    assertThat(spec.sinks().get("a").input()).isEqualTo(spec.sinks().get("b").input());
  }

  private static final String BIDS_TWO_SINKS = SqlTexts.BIDS + """
      CREATE TABLE a (auction BIGINT, n BIGINT) WITH ('connector' = 'blackhole');
      CREATE TABLE b (auction BIGINT, n BIGINT) WITH ('connector' = 'stdout');
      CREATE VIEW counts AS
        SELECT auction, COUNT(*) AS n FROM TABLE(TUMBLE(TABLE bid, DESCRIPTOR(dateTime), INTERVAL '1' SECOND))
        GROUP BY auction, window_start, window_end;
      INSERT INTO a SELECT auction, n FROM counts;
      INSERT INTO b SELECT auction, n FROM counts;
      """;

  @Test
  void theCompiledSpecIsAValidDocumentThatPlans() {
    SqlJob job = SqlJobs.compile(job("auction BIGINT, n BIGINT", """
        INSERT INTO results SELECT auction, COUNT(*) FROM TABLE(TUMBLE(TABLE bid, DESCRIPTOR(dateTime), INTERVAL '1' SECOND))
        GROUP BY auction, window_start, window_end;
        """), "q");

    assertThat(JobSpecs.parse(job.specJson())).isEqualTo(job.spec());
    ExecutionPlan plan = Planner.plan(job.spec());
    assertThat(plan.stages()).hasSize(2);
    assertThat(List.copyOf(job.spec().sinks().keySet())).containsExactly("results");
  }
}
