-- Trigger function: a TRUNCATE of lootbox_purchases rebuilds the days
-- (migration 2026-11-27T1400_lead_lootbox_revenue_days).
CREATE OR REPLACE FUNCTION lootbox_revenue_days_on_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM lootbox_revenue_days_rebuild();
  RETURN NULL;
END $$;
