SELECT
  channel,
  strftime(epoch_ms(dateTime), '%Y-%m-%d') AS day,
  MAX((dateTime // 3600000) % 24 * 60 + (dateTime // 60000) % 60),
  COUNT(*),
  COUNT(*) FILTER (WHERE price < 10000),
  COUNT(*) FILTER (WHERE price >= 10000 AND price < 1000000),
  COUNT(*) FILTER (WHERE price >= 1000000),
  COUNT(DISTINCT bidder),
  COUNT(DISTINCT bidder) FILTER (WHERE price < 10000),
  COUNT(DISTINCT bidder) FILTER (WHERE price >= 10000 AND price < 1000000),
  COUNT(DISTINCT bidder) FILTER (WHERE price >= 1000000),
  COUNT(DISTINCT auction),
  COUNT(DISTINCT auction) FILTER (WHERE price < 10000),
  COUNT(DISTINCT auction) FILTER (WHERE price >= 10000 AND price < 1000000),
  COUNT(DISTINCT auction) FILTER (WHERE price >= 1000000)
FROM bid
GROUP BY channel, day
