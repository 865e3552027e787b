SELECT
  auction,
  strftime(epoch_ms(dateTime), '%Y-%m-%d') AS day,
  COUNT(*),
  COUNT(*) FILTER (WHERE price < 10000),
  COUNT(*) FILTER (WHERE price >= 10000 AND price < 1000000),
  COUNT(*) FILTER (WHERE price >= 1000000),
  MIN(price), MAX(price), AVG(price), SUM(price)
FROM bid
GROUP BY auction, day
