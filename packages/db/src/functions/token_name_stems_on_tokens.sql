-- Trigger function on tokens (migration 2026-11-28T1300_search_name_stems): a token inserted or
-- deleted live adds or removes one from its stem; a rename moves it from its old stem to its new
-- one, a burn takes it out.
CREATE OR REPLACE FUNCTION token_name_stems_on_tokens() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  s text[];
  d integer[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(stem), array_agg(delta) INTO s, d FROM (
      SELECT token_name_stem(token_name) AS stem, count(*)::int AS delta FROM new_rows
       WHERE NOT is_burned GROUP BY 1) x;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(stem), array_agg(delta) INTO s, d FROM (
      SELECT token_name_stem(token_name) AS stem, -count(*)::int AS delta FROM old_rows
       WHERE NOT is_burned GROUP BY 1) x;
  ELSE
    -- Most token updates keep the name and the burn flag: the join finds nothing to move.
    SELECT array_agg(stem), array_agg(delta) INTO s, d FROM (
      SELECT stem, sum(delta)::int AS delta FROM (
        SELECT token_name_stem(o.token_name) AS stem, -1 AS delta
          FROM old_rows o JOIN new_rows n ON n.token_data_id = o.token_data_id
         WHERE NOT o.is_burned AND (n.is_burned OR n.token_name <> o.token_name)
        UNION ALL
        SELECT token_name_stem(n.token_name), 1
          FROM old_rows o JOIN new_rows n ON n.token_data_id = o.token_data_id
         WHERE NOT n.is_burned AND (o.is_burned OR n.token_name <> o.token_name)) m
       GROUP BY 1) x;
  END IF;
  PERFORM token_name_stems_apply(coalesce(s, '{}'), coalesce(d, '{}'));
  RETURN NULL;
END $$;
