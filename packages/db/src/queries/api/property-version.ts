/**
 * A token's property version as every read states it. Token v2 has no property version; the
 * official Aptos processors store `property_version_v1 = 0` for v2 tokens, and token_ownerships /
 * token_activities already hold 0 for them. The market tables keep NULL for a v2 token (the
 * marketplace events carry none), so their reads state 0 wherever the row names a token, and
 * NULL only where it names none (a collection offer).
 */
export function tokenPropertyVersion<Alias extends string>(alias: Alias) {
  return `CASE WHEN ${alias}.token_data_id IS NULL THEN NULL ELSE coalesce(${alias}.property_version, 0) END` as const;
}
