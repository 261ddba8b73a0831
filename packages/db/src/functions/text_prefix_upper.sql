-- The least text above every text that starts with p, in byte order (text_pattern_ops, ~<~): p
-- with its last character replaced by the next code point (none lies between U+D7FF and U+E000
-- in UTF-8), dropping trailing U+10FFFF. A prefix search reads [p, this) of a lower(name) btree
-- with parameters, so a prepared statement's generic plan bounds the range, which LIKE 'p%' does
-- only for a constant. NULL (no range) only for a text of U+10FFFF alone.
-- (Migration 2026-11-28T1300_search_name_stems.)
CREATE OR REPLACE FUNCTION text_prefix_upper(p text) RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
  c integer;
BEGIN
  WHILE p <> '' LOOP
    c := ascii(right(p, 1));
    p := left(p, -1);
    IF c < 1114111 THEN
      RETURN p || chr(CASE WHEN c = 55295 THEN 57344 ELSE c + 1 END);
    END IF;
  END LOOP;
  RETURN NULL;
END $$;
