-- A token name's stem: lowercased, without the digits that end it (migration
-- 2026-11-28T1300_search_name_stems). Digits are ASCII digits only: a name ending in other numerals
-- keeps them in its stem.
CREATE OR REPLACE FUNCTION token_name_stem(name text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT regexp_replace(lower(name), '[0-9]+$', '') $$;
