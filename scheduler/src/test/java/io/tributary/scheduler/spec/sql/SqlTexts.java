package io.tributary.scheduler.spec.sql;

/** SQL declarations the tests share. */
final class SqlTexts {
  /** Nexmark bids with event time, 1,000 of them. */
  static final String BIDS = """
      CREATE TABLE bid (
        auction BIGINT, bidder BIGINT, price BIGINT, channel VARCHAR, url VARCHAR,
        dateTime TIMESTAMP(3), extra VARCHAR,
        WATERMARK FOR dateTime AS dateTime - INTERVAL '4' SECOND
      ) WITH ('connector' = 'nexmark', 'kind' = 'bid', 'events' = '1000');
      """;

  /** Nexmark auctions with event time, 100 of them. */
  static final String AUCTIONS = """
      CREATE TABLE auction (
        id BIGINT, seller BIGINT, category BIGINT, reserve BIGINT, dateTime TIMESTAMP(3), expires TIMESTAMP(3),
        WATERMARK FOR dateTime AS dateTime - INTERVAL '4' SECOND
      ) WITH ('connector' = 'nexmark', 'kind' = 'auction', 'events' = '100');
      """;

  private SqlTexts() {}

  /** {@link #BIDS}, a blackhole sink {@code results} of {@code columns} and {@code statements}. */
  static String job(String columns, String statements) {
    return BIDS + "CREATE TABLE results (" + columns + ") WITH ('connector' = 'blackhole');\n" + statements;
  }
}
