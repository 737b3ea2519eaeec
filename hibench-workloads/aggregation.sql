-- HiBench AGGREGATE: revenue per source IP (a GROUP BY with about as many groups as rows).
INSERT OVERWRITE TABLE uservisits_aggre SELECT sourceIP, SUM(adRevenue) FROM uservisits GROUP BY sourceIP;
