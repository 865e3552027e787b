package io.tributary.scheduler.spec.sql;

import static io.tributary.scheduler.spec.sql.SqlTexts.AUCTIONS;
import static io.tributary.scheduler.spec.sql.SqlTexts.job;
import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.scheduler.planner.Planner;
import io.tributary.scheduler.spec.JobSpec;
import io.tributary.scheduler.spec.JoinSpec;
import io.tributary.scheduler.spec.OperatorSpec;
import io.tributary.scheduler.spec.TopNSpec;
import io.tributary.scheduler.spec.WindowSpec;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Joins, UNION ALL, unbounded GROUP BY, count(DISTINCT), CUMULATE and ROW_NUMBER, compiled. */
class SqlOperatorsTest {
  private static JobSpec compile(String sql) {
    JobSpec spec = SqlJobs.compile(sql, "q").spec();
    Planner.plan(spec);
    return spec;
  }

  private static OperatorSpec only(JobSpec spec, java.util.function.Predicate<OperatorSpec> which) {
    List<OperatorSpec> found = spec.operators().stream().filter(which).toList();
    assertThat(found).hasSize(1);
    return found.get(0);
  }

  @Test
  void anEquiJoinIsARegularJoinWithTheOtherConditionsAsItsFilter() {
    JobSpec spec = compile(AUCTIONS + job("auction BIGINT, price BIGINT, seller BIGINT", """
        INSERT INTO results
        SELECT B.auction, B.price, A.seller FROM bid B JOIN auction A ON B.auction = A.id
        WHERE A.category = 10 AND B.price > A.reserve;"""));

    OperatorSpec join = only(spec, o -> o.join() != null);
    JoinSpec j = join.join();
    assertThat(j.on()).containsExactly(new JoinSpec.KeyPair("auction", "id"));
    assertThat(j.window()).isNull();
    assertThat(j.between()).isNull();
    assertThat(join.filter()).isEqualTo("(\"l.price\" > \"r.reserve\")");
    assertThat(join.select()).containsExactly(Map.entry("auction", "\"l.auction\""),
        Map.entry("price", "\"l.price\""), Map.entry("seller", "\"r.seller\""));
    OperatorSpec auctions = spec.operators().stream().filter(o -> o.id().equals(j.right())).findFirst().orElseThrow();
    assertThat(auctions.filter()).as("a condition on one side is applied before the join").isEqualTo("(\"category\" = 10)");
    assertThat(spec.sinks().get("results").input()).isEqualTo(join.id());
  }

  @Test
  void timeBoundsOfTheTwoSidesMakeAnIntervalJoin() {
    JobSpec spec = compile(AUCTIONS + job("auction BIGINT, price BIGINT", """
        INSERT INTO results
        SELECT B.auction, B.price FROM auction A JOIN bid B ON B.auction = A.id
          AND B.dateTime BETWEEN A.dateTime - INTERVAL '1' SECOND AND A.dateTime + INTERVAL '1' MINUTE;"""));

    JoinSpec j = only(spec, o -> o.join() != null).join();
    assertThat(j.between()).isEqualTo(new JoinSpec.Bounds(-1_000, 60_000));
  }

  @Test
  void windowResultsJoinedOnTheirWindowsMakeAWindowJoinOfTheirPeriod() {
    JobSpec spec = compile(AUCTIONS + job("id BIGINT, bids BIGINT", """
        INSERT INTO results
        SELECT A.id, B.bids FROM (
          SELECT id, window_start AS ws, window_end AS we
          FROM TABLE(HOP(TABLE auction, DESCRIPTOR(dateTime), INTERVAL '5' SECOND, INTERVAL '10' SECOND))
          GROUP BY id, window_start, window_end) A
        JOIN (
          SELECT auction, COUNT(*) AS bids, window_start AS ws, window_end AS we
          FROM TABLE(HOP(TABLE bid, DESCRIPTOR(dateTime), INTERVAL '5' SECOND, INTERVAL '10' SECOND))
          GROUP BY auction, window_start, window_end) B
        ON A.id = B.auction AND A.ws = B.ws AND A.we = B.we;"""));

    JoinSpec j = only(spec, o -> o.join() != null).join();
    assertThat(j.window()).isEqualTo(new WindowSpec("tumbling", 5_000, 0, 0, 0, null, null));
    assertThat(j.on()).extracting(JoinSpec.KeyPair::left).containsExactly("id", "ws", "we");
  }

  @Test
  void aJoinWithoutAnEqualityIsRefusedAtTheJoin() {
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> compile(AUCTIONS + job("id BIGINT", """
        INSERT INTO results SELECT A.id FROM auction A JOIN bid B ON B.price > A.reserve;""")))
        .hasMessageContaining("line 11, column 48: a JOIN needs at least one equality");
  }

  @Test
  void unionAllIsAUnionOfInputsWithTheSameColumns() {
    JobSpec spec = compile(AUCTIONS + job("id BIGINT, amount BIGINT", """
        INSERT INTO results
        SELECT auction, price FROM bid WHERE price > 100
        UNION ALL
        SELECT id, reserve FROM auction;"""));

    OperatorSpec union = only(spec, o -> o.union() != null);
    assertThat(union.union()).hasSize(2);
    for (String input : union.union()) {
      OperatorSpec in = spec.operators().stream().filter(o -> o.id().equals(input)).findFirst().orElseThrow();
      assertThat(in.select().keySet()).containsExactly("auction", "price");
    }
  }

  @Test
  void anUnboundedGroupByWritesItsUpsertStreamStraightIntoTheSinkNamedAsItsColumns() {
    JobSpec spec = compile(job("buyer BIGINT, bids BIGINT, auctions BIGINT, top BIGINT", """
        INSERT INTO results
        SELECT bidder, COUNT(*), COUNT(DISTINCT auction), MAX(price) FROM bid GROUP BY bidder;"""));

    OperatorSpec agg = only(spec, o -> o.aggregate() != null);
    assertThat(agg.window()).isNull();
    assertThat(agg.keyBy()).containsExactly("buyer");
    assertThat(agg.aggregate()).containsExactly(Map.entry("bids", "count(*)"),
        Map.entry("auctions", "count(DISTINCT \"auction\")"), Map.entry("top", "max(\"price\")"));
    assertThat(spec.sinks().get("results").input()).isEqualTo(agg.id());
  }

  @Test
  void cumulateWindowsAggregateWithTheirStep() {
    JobSpec spec = compile(job("auction BIGINT, n BIGINT, we TIMESTAMP(3)", """
        INSERT INTO results
        SELECT auction, COUNT(*), window_end
        FROM TABLE(CUMULATE(TABLE bid, DESCRIPTOR(dateTime), INTERVAL '2' SECOND, INTERVAL '10' SECOND))
        GROUP BY auction, window_start, window_end;"""));

    assertThat(only(spec, o -> o.window() != null).window())
        .isEqualTo(new WindowSpec("cumulate", 10_000, 0, 0, 0, null, 2_000L));
  }

  @Test
  void rowNumberPerWindowIsATopNOfItsPartitionAndOrder() {
    JobSpec spec = compile(job("auction BIGINT, n BIGINT, we TIMESTAMP(3), rnk BIGINT", """
        INSERT INTO results
        SELECT auction, n, we, rn FROM (
          SELECT *, ROW_NUMBER() OVER (PARTITION BY ws, we ORDER BY n DESC) AS rn FROM (
            SELECT auction, COUNT(*) AS n, window_start AS ws, window_end AS we
            FROM TABLE(TUMBLE(TABLE bid, DESCRIPTOR(dateTime), INTERVAL '10' SECOND))
            GROUP BY auction, window_start, window_end))
        WHERE rn <= 3;"""));

    TopNSpec top = only(spec, o -> o.topN() != null).topN();
    assertThat(top.partitionBy()).containsExactly("window_start", "window_end");
    assertThat(top.orderBy()).containsExactly(new TopNSpec.SortKey("n", true, "first"));
    assertThat(top.limit()).isEqualTo(3);
    assertThat(top.rankField()).isEqualTo("rownum");
  }

  @Test
  void rowNumberOverAWindowTableFunctionAssignsWindowsFirst() {
    JobSpec spec = compile(job("auction BIGINT, price BIGINT, we TIMESTAMP(3)", """
        INSERT INTO results
        SELECT auction, price, window_end FROM (
          SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end, auction ORDER BY dateTime) AS rn
          FROM TABLE(TUMBLE(TABLE bid, DESCRIPTOR(dateTime), INTERVAL '10' SECOND)))
        WHERE rn = 1;"""));

    OperatorSpec windows = only(spec, o -> o.window() != null);
    assertThat(windows.aggregate()).isNull();
    assertThat(windows.window().type()).isEqualTo("tumbling");
    OperatorSpec top = only(spec, o -> o.topN() != null);
    assertThat(top.topN().limit()).isEqualTo(1);
    assertThat(top.topN().rankField()).isNull();
  }

  @Test
  void rowNumberWithoutAWindowIsAnUnboundedTopNWhoseUpsertStreamGoesIntoTheSink() {
    JobSpec spec = compile(job("a BIGINT, b BIGINT, p BIGINT, t TIMESTAMP(3), r BIGINT", """
        INSERT INTO results
        SELECT auction, bidder, price, dateTime, rank_number FROM (
          SELECT *, ROW_NUMBER() OVER (PARTITION BY auction ORDER BY price DESC) AS rank_number FROM bid)
        WHERE rank_number <= 10;"""));

    OperatorSpec top = only(spec, o -> o.topN() != null);
    assertThat(top.topN().partitionBy()).containsExactly("a");
    assertThat(top.topN().orderBy()).containsExactly(new TopNSpec.SortKey("p", true, "first"));
    assertThat(top.topN().limit()).isEqualTo(10);
    assertThat(top.topN().rankField()).isEqualTo("r");
    OperatorSpec before = spec.operators().stream().filter(o -> o.id().equals(top.input())).findFirst().orElseThrow();
    assertThat(before.select()).containsExactly(Map.entry("a", "\"auction\""), Map.entry("b", "\"bidder\""),
        Map.entry("p", "\"price\""), Map.entry("t", "\"dateTime\""));
    assertThat(spec.sinks().get("results").input()).isEqualTo(top.id());
  }

  @Test
  void theLatestRowPerKeyIsAnUnboundedDeduplicationWithoutARank() {
    JobSpec spec = compile(job("auction BIGINT, bidder BIGINT, price BIGINT, dateTime TIMESTAMP(3)", """
        INSERT INTO results
        SELECT auction, bidder, price, dateTime FROM (
          SELECT *, ROW_NUMBER() OVER (PARTITION BY bidder, auction ORDER BY dateTime DESC) AS rn FROM bid)
        WHERE rn = 1;"""));

    TopNSpec top = only(spec, o -> o.topN() != null).topN();
    assertThat(top.partitionBy()).containsExactly("bidder", "auction");
    assertThat(top.orderBy()).containsExactly(new TopNSpec.SortKey("dateTime", true, "first"));
    assertThat(top.limit()).isEqualTo(1);
    assertThat(top.rankField()).isNull();
  }

  @Test
  void aGroupByOverAnUnboundedGroupBysResultsAggregatesItsUpsertStreamItsKeysNamedAsTheOuterOnes() {
    JobSpec spec = compile(job("c VARCHAR, a DOUBLE, n BIGINT", """
        INSERT INTO results
        SELECT Q.channel, AVG(Q.top), COUNT(*) FROM (
          SELECT MAX(price) AS top, channel FROM bid GROUP BY auction, channel) Q
        GROUP BY Q.channel;"""));

    List<OperatorSpec> aggregates = spec.operators().stream().filter(o -> o.aggregate() != null).toList();
    assertThat(aggregates).hasSize(2);
    OperatorSpec inner = aggregates.get(0);
    OperatorSpec outer = aggregates.get(1);
    assertThat(inner.keyBy()).containsExactly("auction", "c");
    assertThat(inner.aggregate()).containsExactly(Map.entry("top", "max(\"price\")"));
    assertThat(outer.input()).isEqualTo(inner.id());
    assertThat(outer.keyBy()).containsExactly("c");
    assertThat(outer.aggregate()).containsExactly(Map.entry("a", "avg(\"top\")"), Map.entry("n", "count(*)"));
    assertThat(spec.sinks().get("results").input()).isEqualTo(outer.id());
  }
}
