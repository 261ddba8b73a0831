-- Trigger function on lootbox_purchases (migration 2026-11-27T1400_lead_lootbox_revenue_days). One
-- row per touched day, summed before it is applied, in key order (concurrent writers lock the rows
-- in the same order). The transition tables a statement's event does not hand over are not visible
-- to the function, so each branch names only the ones its event has.
CREATE OR REPLACE FUNCTION lootbox_revenue_days_on_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO lootbox_revenue_days AS d (lootbox_id, coin_type, day, amount, quantity, purchases)
    SELECT lootbox_id, coin_type, (transaction_timestamp AT TIME ZONE 'UTC')::date,
           sum(amount_paid), sum(quantity), count(*)
      FROM new_rows GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (lootbox_id, coin_type, day) DO UPDATE SET
      amount = d.amount + excluded.amount, quantity = d.quantity + excluded.quantity,
      purchases = d.purchases + excluded.purchases;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO lootbox_revenue_days AS d (lootbox_id, coin_type, day, amount, quantity, purchases)
    SELECT lootbox_id, coin_type, (transaction_timestamp AT TIME ZONE 'UTC')::date,
           -sum(amount_paid), -sum(quantity), -count(*)
      FROM old_rows GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (lootbox_id, coin_type, day) DO UPDATE SET
      amount = d.amount + excluded.amount, quantity = d.quantity + excluded.quantity,
      purchases = d.purchases + excluded.purchases;
  ELSE
    INSERT INTO lootbox_revenue_days AS d (lootbox_id, coin_type, day, amount, quantity, purchases)
    SELECT lootbox_id, coin_type, day, sum(amount), sum(quantity), sum(purchases) FROM (
      SELECT lootbox_id, coin_type, (transaction_timestamp AT TIME ZONE 'UTC')::date AS day,
             amount_paid AS amount, quantity, 1 AS purchases FROM new_rows
      UNION ALL
      SELECT lootbox_id, coin_type, (transaction_timestamp AT TIME ZONE 'UTC')::date,
             -amount_paid, -quantity, -1 FROM old_rows) x
     GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (lootbox_id, coin_type, day) DO UPDATE SET
      amount = d.amount + excluded.amount, quantity = d.quantity + excluded.quantity,
      purchases = d.purchases + excluded.purchases;
  END IF;
  RETURN NULL;
END $$;
