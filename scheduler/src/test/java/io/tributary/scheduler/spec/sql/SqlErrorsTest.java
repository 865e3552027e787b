package io.tributary.scheduler.spec.sql;

import static io.tributary.scheduler.spec.sql.SqlTexts.job;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.tributary.scheduler.spec.InvalidSpecException;
import io.tributary.scheduler.spec.SpecError;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every error of a SQL job is one line with the line and column of what is wrong. */
class SqlErrorsTest {
  /** The line where {@link SqlTexts#job}'s statements start. */
  private static final int FIRST = 7;

  private static List<SpecError> errors(String sql) {
    InvalidSpecException e = catchThrowableOfType(InvalidSpecException.class, () -> SqlJobs.compile(sql, "q"));
    assertThat(e).as("compiling should fail").isNotNull();
    assertThat(e.errors()).allSatisfy(err -> {
      assertThat(err.positioned()).isTrue();
      assertThat(err.message()).doesNotContain("\n").doesNotContain("Exception");
    });
    return e.errors();
  }

  private static SpecError only(String sql) {
    List<SpecError> errors = errors(sql);
    assertThat(errors).hasSize(1);
    return errors.get(0);
  }

  @Test
  void aSyntaxErrorNamesTheTokenAndWhere() {
    SpecError e = only(job("a BIGINT", "INSERT INTO results SELECT auction,\nFROM bid;"));

    assertThat(e.line()).isEqualTo(FIRST + 1);
    assertThat(e.column()).isEqualTo(1);
    assertThat(e.message()).startsWith("syntax error at 'FROM'");
  }

  @Test
  void aTextNestedTooDeeplyIsAnErrorNotAStackOverflow() {
    String terms = String.join(" + ", java.util.Collections.nCopies(1_000, "price"));
    SpecError sum = only(job("a BIGINT", "INSERT INTO results SELECT " + terms + " FROM bid;"));
    assertThat(sum.line()).isEqualTo(FIRST);
    assertThat(sum.message()).startsWith("the statement nests more than 64 levels deep");

    String parens = "(".repeat(5_000) + "price" + ")".repeat(5_000);
    SpecError parsed = only(job("a BIGINT", "INSERT INTO results SELECT " + parens + " FROM bid;"));
    assertThat(parsed.message()).startsWith("the text nests too deeply to parse");

    String nested = "(".repeat(40) + "price" + ")".repeat(40);
    assertThat(SqlJobs.compile(job("a BIGINT", "INSERT INTO results SELECT " + nested + " FROM bid;"), "q").spec())
        .as("parentheses alone add no level").isNotNull();
  }

  @Test
  void anUnknownColumnIsCalcitesErrorAtTheColumn() {
    SpecError e = only(job("a BIGINT", "INSERT INTO results SELECT prise FROM bid;"));

    assertThat(e.line()).isEqualTo(FIRST);
    assertThat(e.column()).isEqualTo(28);
    assertThat(e.message()).isEqualTo("Column 'prise' not found in any table");
  }

  @Test
  void aTypeMismatchNamesBothTypes() {
    SpecError e = only(job("a BIGINT", "INSERT INTO results SELECT channel FROM bid;"));

    assertThat(e.line()).isEqualTo(FIRST);
    assertThat(e.message()).contains("BIGINT").contains("VARCHAR");
  }

  @Test
  void aComparisonOfAStringWithANumberIsATypeMismatch() {
    SpecError e = only(job("a BIGINT", "INSERT INTO results SELECT auction FROM bid WHERE channel > 3;"));

    assertThat(e.column()).isEqualTo(51);
    assertThat(e.message()).isEqualTo("cannot compare VARCHAR with INTEGER ('>'); CAST one of them");
  }

  @Test
  void anUnsupportedConstructPointsAtIt() {
    SpecError e = only(job("a BIGINT", "INSERT INTO results SELECT auction FROM bid\nORDER BY auction;"));

    assertThat(e.line()).isEqualTo(FIRST + 1);
    assertThat(e.column()).isEqualTo(10);
    assertThat(e.message()).contains("ORDER BY");
  }

  @Test
  void subqueriesLateralAndMatchRecognizeAreNamedAsWritten() {
    SpecError in = only(job("a BIGINT", "INSERT INTO results SELECT auction FROM bid\n"
        + "WHERE auction IN (SELECT price FROM bid);"));
    assertThat(in.line()).isEqualTo(FIRST + 1);
    assertThat(in.message()).startsWith("a subquery in an expression").endsWith("write a JOIN");

    SpecError scalar = only(job("a BIGINT", "INSERT INTO results SELECT (SELECT MAX(price) FROM bid) FROM bid;"));
    assertThat(scalar.message()).startsWith("a subquery in an expression");

    SpecError lateral = only(job("a BIGINT", "INSERT INTO results SELECT auction FROM bid, LATERAL (SELECT price) t;"));
    assertThat(lateral.message()).startsWith("LATERAL and correlated subqueries are not supported");

    SpecError match = only(job("a BIGINT", "INSERT INTO results SELECT p FROM bid MATCH_RECOGNIZE (PARTITION BY "
        + "auction ORDER BY dateTime MEASURES A.price AS p PATTERN (A) DEFINE A AS A.price > 0);"));
    assertThat(match.message()).isEqualTo("MATCH_RECOGNIZE is not supported");
  }

  @Test
  void anUnboundedGroupBysUpsertStreamGoesOnlyIntoASink() {
    SpecError e = only(job("a BIGINT", "INSERT INTO results SELECT COUNT(*) * 2 FROM bid GROUP BY auction;"));

    assertThat(e.line()).isEqualTo(FIRST);
    assertThat(e.message()).contains("upsert stream, which only a sink may take");
  }

  @Test
  void anUnboundedTopNGoesOnlyIntoASinkAsItIsWithItsRankWhenItKeepsMoreThanOneRow() {
    String ranked = "(SELECT *, ROW_NUMBER() OVER (PARTITION BY auction ORDER BY price DESC) AS rn FROM bid)";
    SpecError noRank = only(job("a BIGINT, p BIGINT", "INSERT INTO results\nSELECT auction, price FROM " + ranked
        + " WHERE rn <= 3;"));
    SpecError expression = only(job("a BIGINT, p BIGINT", "INSERT INTO results\nSELECT auction, price + 1 FROM "
        + ranked + " WHERE rn = 1;"));
    SpecError read = only(job("a BIGINT", "INSERT INTO results\nSELECT COUNT(*) FROM " + ranked
        + " WHERE rn = 1 GROUP BY auction;"));
    SpecError noOrder = only(job("a BIGINT", "INSERT INTO results\nSELECT auction FROM " + ranked + " WHERE rn = 1;"));

    assertThat(noRank.line()).isEqualTo(FIRST + 1);
    assertThat(noRank.message()).contains("select the row number");
    assertThat(expression.message()).contains("select its columns as they are");
    assertThat(read.message()).contains("unbounded top-N", "only a sink may take");
    assertThat(read.line()).isEqualTo(FIRST + 1);
    assertThat(noOrder.message()).contains("writes its partition and order columns");
  }

  @Test
  void aGroupByOverAnUnboundedGroupByTakesCountSumAndAvgOfItsKeys() {
    String inner = "(SELECT MAX(price) AS top, auction, channel FROM bid GROUP BY auction, channel) Q";
    SpecError max = only(job("c VARCHAR, m BIGINT", "INSERT INTO results\nSELECT channel, MIN(top) FROM " + inner
        + " GROUP BY channel;"));
    SpecError byResult = only(job("t BIGINT, n BIGINT", "INSERT INTO results\nSELECT top, COUNT(*) FROM " + inner
        + " GROUP BY top;"));

    assertThat(max.line()).isEqualTo(FIRST + 1);
    assertThat(max.message()).contains("MIN over the results of an unbounded GROUP BY is not supported",
        "COUNT, SUM and AVG can");
    assertThat(byResult.message()).contains("groups by keys of that one");
  }

  @Test
  void aWindowsDescriptorMustNameTheEventTimeColumn() {
    SpecError e = only(job("a BIGINT", """
        CREATE VIEW shifted AS SELECT auction, dateTime + INTERVAL '1' SECOND AS t FROM bid;
        INSERT INTO results SELECT COUNT(*)
        FROM TABLE(TUMBLE(TABLE shifted, DESCRIPTOR(t), INTERVAL '1' SECOND))
        GROUP BY window_start, window_end;"""));

    assertThat(e.line()).isEqualTo(FIRST + 2);
    assertThat(e.column()).isEqualTo(34);
    assertThat(e.message()).contains("DESCRIPTOR must name the event-time column");
  }

  @Test
  void anOptionOfTheWrongTypeIsReportedAtTheOption() {
    SpecError e = only("""
        CREATE TABLE bid (auction BIGINT)
          WITH ('connector' = 'nexmark',
                'events' = 'many');
        CREATE TABLE results (a BIGINT) WITH ('connector' = 'blackhole');
        INSERT INTO results SELECT auction FROM bid;
        """);

    assertThat(e.line()).isEqualTo(3);
    assertThat(e.column()).isEqualTo(9);
    assertThat(e.message()).isEqualTo("table 'bid', option 'events': must be an integer, found a string");
  }

  @Test
  void anUnknownOptionSuggestsTheKnownOne() {
    SpecError e = only("""
        CREATE TABLE bid (auction BIGINT) WITH ('connector' = 'nexmark', 'evnts' = '10');
        CREATE TABLE results (a BIGINT) WITH ('connector' = 'blackhole');
        INSERT INTO results SELECT auction FROM bid;
        """);

    assertThat(e.line()).isEqualTo(1);
    assertThat(e.message()).contains("unknown option 'evnts'").contains("did you mean 'events'?");
  }

  @Test
  void aMissingRequiredOptionIsReportedAtTheTable() {
    SpecError e = only("""
        CREATE TABLE clicks (id BIGINT) WITH ('connector' = 'file');
        CREATE TABLE results (a BIGINT) WITH ('connector' = 'blackhole');
        INSERT INTO results SELECT id FROM clicks;
        """);

    assertThat(e.line()).isEqualTo(1);
    assertThat(e.column()).isEqualTo(14);
    assertThat(e.message()).isEqualTo("table 'clicks', option 'path': is required for this type");
  }

  @Test
  void aWatermarkNeedsATimestampColumn() {
    SpecError e = only("""
        CREATE TABLE bid (auction BIGINT, ts BIGINT, WATERMARK FOR ts AS ts)
          WITH ('connector' = 'nexmark');
        CREATE TABLE results (a BIGINT) WITH ('connector' = 'blackhole');
        INSERT INTO results SELECT auction FROM bid;
        """);

    assertThat(e.line()).isEqualTo(1);
    assertThat(e.column()).isEqualTo(60);
    assertThat(e.message()).contains("must be declared TIMESTAMP(3)");
  }

  @Test
  void everyStatementsErrorsAreReportedAtOnce() {
    List<SpecError> errors = errors(job("a BIGINT", """
        INSERT INTO results SELECT prise FROM bid;
        INSERT INTO nowhere SELECT auction FROM bid;"""));

    assertThat(errors).extracting(SpecError::line).containsExactly(FIRST, FIRST + 1);
    assertThat(errors.get(1).message()).isEqualTo("table 'nowhere' is not declared");
  }

  @Test
  void aJobWithoutAnInsertWritesNothing() {
    SpecError e = only(SqlTexts.BIDS);

    assertThat(e.message()).contains("INSERT INTO");
  }

  @Test
  void aQueryAloneHasNowhereToGo() {
    SpecError e = only(job("a BIGINT", "INSERT INTO results SELECT auction FROM bid;\nSELECT auction FROM bid;"));

    assertThat(e.line()).isEqualTo(FIRST + 1);
    assertThat(e.message()).contains("INSERT INTO a table");
  }

  @Test
  void withoutADefaultTheJobMustBeNamed() {
    InvalidSpecException e = catchThrowableOfType(InvalidSpecException.class,
        () -> SqlJobs.compile(job("a BIGINT", "INSERT INTO results SELECT auction FROM bid;"), null));

    assertThat(e.errors()).extracting(SpecError::message).containsExactly("the job needs a name: SET 'name' = "
        + "'my-job';");
  }
}
