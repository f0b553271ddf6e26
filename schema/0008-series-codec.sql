-- perfsift schema, version 8: series chunks packed.
-- A chunk of points was n pairs of doubles, 16 bytes a point; a monitor's
-- points are integers (epoch seconds, counters, pages), and written as
-- differences they take 2-4 bytes, which is most of a procfs import's
-- time saved in writing (docs/performance.md, section 7).  codec names
-- the layout of points (lib/store/series.c): 0 the pairs of doubles,
-- every chunk written before this version; 1 packed.
ALTER TABLE series ADD COLUMN codec INTEGER NOT NULL DEFAULT 0;
