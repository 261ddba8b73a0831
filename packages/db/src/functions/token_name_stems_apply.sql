-- Applies one statement's stem deltas to token_name_stems (migration
-- 2026-11-28T1300_search_name_stems). Deltas are summed per stem and applied in stem order
-- (concurrent writers lock rows in the same order); a statement whose deltas cancel out (most token
-- updates: a transfer's facts, a collection name filled in) writes nothing.
CREATE OR REPLACE FUNCTION token_name_stems_apply(stems text[], deltas integer[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  IF cardinality(stems) = 0 THEN RETURN; END IF;
  INSERT INTO token_name_stems AS s (stem, live_count)
  SELECT d.stem, sum(d.delta)::int FROM unnest(stems, deltas) d(stem, delta)
   GROUP BY 1 HAVING sum(d.delta) <> 0
   ORDER BY 1
  ON CONFLICT (stem) DO UPDATE SET live_count = s.live_count + excluded.live_count;
  -- Only a rename or a burn takes a token out of a stem: then a stem left with no live token goes.
  IF EXISTS (SELECT 1 FROM unnest(deltas) d WHERE d < 0) THEN
    DELETE FROM token_name_stems WHERE stem = ANY(stems) AND live_count = 0;
  END IF;
END $$;
