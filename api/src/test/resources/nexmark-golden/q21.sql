SELECT
  auction, bidder, price, channel,
  CASE
    WHEN lower(channel) = 'apple' THEN '0'
    WHEN lower(channel) = 'google' THEN '1'
    WHEN lower(channel) = 'facebook' THEN '2'
    WHEN lower(channel) = 'baidu' THEN '3'
    WHEN regexp_matches(url, '(&|^)channel_id=([^&]*)') THEN regexp_extract(url, '(&|^)channel_id=([^&]*)', 2)
    ELSE NULL
  END AS channel_id
FROM bid
WHERE regexp_matches(url, '(&|^)channel_id=([^&]*)') OR lower(channel) IN ('apple', 'google', 'facebook', 'baidu')
