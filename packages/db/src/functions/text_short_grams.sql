-- The one- and two-character substrings of a text, lower-cased, that are letters a-z or digits
-- 0-9: the searches active_listing_grams counts (migration 2026-12-20T1000_active_listing_grams).
-- A search text of one or two letters or digits matches a name with ILIKE '%text%' exactly when
-- its lower-cased form is one of these: Postgres compares ILIKE in a multibyte encoding by
-- lower-casing both sides, and a text without wildcards matches as a substring.
CREATE OR REPLACE FUNCTION text_short_grams(t text) RETURNS SETOF text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT DISTINCT g
    FROM (SELECT lower(t) AS s) x
   CROSS JOIN generate_series(1, length(x.s)) AS i
   CROSS JOIN LATERAL (VALUES (substr(x.s, i, 1)), (substr(x.s, i, 2))) AS v(g)
   WHERE g ~ '^[a-z0-9]{1,2}$'
$$;
