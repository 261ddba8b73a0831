-- Recounts lootbox_revenue_days from the purchases: the migration's fill, and after a TRUNCATE
-- (migration 2026-11-27T1400_lead_lootbox_revenue_days).
CREATE OR REPLACE FUNCTION lootbox_revenue_days_rebuild() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM lootbox_revenue_days;
  INSERT INTO lootbox_revenue_days (lootbox_id, coin_type, day, amount, quantity, purchases)
  SELECT lootbox_id, coin_type, (transaction_timestamp AT TIME ZONE 'UTC')::date,
         sum(amount_paid), sum(quantity), count(*)
    FROM lootbox_purchases GROUP BY 1, 2, 3;
END $$;
