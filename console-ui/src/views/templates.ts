/** What a new job's editor starts with, written as a YAML spec. */
export const NEW_JOB_TEMPLATE = `# A streaming job. "Check and preview" plans it; "Apply" creates it, running.
name: my-job
parallelism: {initial: 1, min: 1, max: 4}
checkpoints: {interval: 10s}
sources:
  bids:
    type: nexmark
    kind: bid
    maxRecordsPerSecond: 1000
    eventRate: 1000   # event time at about the wall clock's pace, so windows close as time passes
    eventTime: {field: dateTime, maxOutOfOrderness: 1s}
operators:
  - id: per-auction
    input: bids
    keyBy: [auction]
    window: {type: tumbling, size: 10s}
    aggregate: {bids: "count(*)", top_price: "max(price)"}
sinks:
  out: {input: per-auction, type: blackhole}
`;

/** The same job written as SQL. */
export const NEW_SQL_TEMPLATE = `-- A streaming job in SQL. "Check and preview" plans it; "Apply" creates it, running.
SET 'name' = 'my-job';
SET 'parallelism' = '1';
SET 'checkpoints.interval' = '10s';

CREATE TABLE bids (
  auction BIGINT, bidder BIGINT, price BIGINT, dateTime TIMESTAMP(3),
  WATERMARK FOR dateTime AS dateTime - INTERVAL '1' SECOND
) WITH ('connector' = 'nexmark', 'kind' = 'bid', 'maxRecordsPerSecond' = '1000',
        'eventRate' = '1000');  -- event time at about the wall clock's pace

CREATE TABLE per_auction (auction BIGINT, window_end TIMESTAMP(3), bids BIGINT, top_price BIGINT)
  WITH ('connector' = 'blackhole');

INSERT INTO per_auction
SELECT auction, window_end, COUNT(*), MAX(price)
FROM TABLE(TUMBLE(TABLE bids, DESCRIPTOR(dateTime), INTERVAL '10' SECOND))
GROUP BY auction, window_start, window_end;
`;
