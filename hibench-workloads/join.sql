-- HiBench JOIN: the visits of 1999 joined with the visited pages' ranks, per source IP, by revenue.
INSERT OVERWRITE TABLE rankings_uservisits_join
SELECT sourceIP, avg(pageRank), sum(adRevenue) as totalRevenue
FROM rankings R JOIN (
  SELECT sourceIP, destURL, adRevenue FROM uservisits UV
  WHERE (datediff(UV.visitDate, '1999-01-01') >= 0 AND datediff(UV.visitDate, '2000-01-01') <= 0)
) NUV ON (R.pageURL = NUV.destURL)
group by sourceIP
order by totalRevenue DESC;
