-- perfsift schema, version 8, on PostgreSQL: series chunks packed
-- (schema/0008-series-codec.sql says why and what codec means).
ALTER TABLE series ADD COLUMN codec integer NOT NULL DEFAULT 0;
UPDATE perfsift_meta SET schema_version = 8;
