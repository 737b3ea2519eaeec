-- HiBench SCAN: a full copy of uservisits (map-only: read, write).
INSERT OVERWRITE TABLE uservisits_copy SELECT * FROM uservisits;
