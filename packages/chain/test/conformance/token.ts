import type { DecodedTransaction, TokenActivityKind } from '../../src/index';
import { type Row, readRows } from './expected';
import { canonical, MismatchCollector } from './mismatch';

/** Official `type_` of token_activities_v2 → our activity kind. */
const KIND_OF_TYPE: Record<string, TokenActivityKind> = {
  MintTokenEvent: 'mint',
  Mint: 'mint',
  MintEvent: 'mint',
  DepositEvent: 'deposit',
  TokenDeposit: 'deposit',
  WithdrawEvent: 'withdraw',
  TokenWithdraw: 'withdraw',
  BurnTokenEvent: 'burn',
  Burn: 'burn',
  BurnEvent: 'burn',
  MutateTokenPropertyMapEvent: 'mutate',
  MutatePropertyMap: 'mutate',
  MutationEvent: 'mutate',
  Mutation: 'mutate',
  TransferEvent: 'transfer',
  Transfer: 'transfer',
  TokenOfferEvent: 'offer',
  Offer: 'offer',
  TokenClaimEvent: 'claim',
  Claim: 'claim',
  TokenCancelOfferEvent: 'cancel_offer',
  CancelOffer: 'cancel_offer',
};

function kindOf(type: unknown): string {
  const name = String(type).split('::').pop() ?? '';
  return KIND_OF_TYPE[name] ?? `unknown:${String(type)}`;
}

/** token_v2_processor conformance: activities, token data, ownerships, collections, pending claims. */
export function compareToken(root: string, dir: string, decoded: DecodedTransaction[]): MismatchCollector {
  const collector = new MismatchCollector(dir.split('/').at(-1) ?? dir);
  const rows = (table: string): Row[] => readRows(root, dir, table);

  const activities = new Map(
    decoded.flatMap((tx) => tx.tokenActivities).map((fact) => [`${fact.version}#${fact.eventIndex}`, fact]),
  );
  for (const row of rows('token_activities_v2')) {
    const key = `${row['transaction_version']}#${row['event_index']}`;
    const fact = activities.get(key);
    activities.delete(key);
    if (!fact) {
      collector.row('token_activities_v2', key, 'missing-row', row['type_']);
      continue;
    }
    const f = (field: string, expected: unknown, actual: unknown): void =>
      collector.field('token_activities_v2', key, field, expected, actual, fact.kind);
    f('type_', kindOf(row['type_']), fact.kind);
    f('token_data_id', row['token_data_id'], fact.tokenDataId);
    f('property_version_v1', row['property_version_v1'], fact.propertyVersion);
    f('from_address', row['from_address'], fact.fromAddress);
    f('to_address', row['to_address'], fact.toAddress);
    f('token_amount', row['token_amount'], fact.amount);
    f('token_standard', row['token_standard'], fact.tokenStandard);
    f('before_value', row['before_value'], fact.beforeValue ?? null);
    f('after_value', row['after_value'], fact.afterValue ?? null);
  }
  for (const [key, fact] of activities) collector.row('token_activities_v2', key, 'extra-row', fact.kind);

  const burned = new Set(decoded.flatMap((tx) => tx.burnedTokens));
  const tokens = new Map(decoded.flatMap((tx) => tx.tokens).map((fact) => [fact.tokenDataId, fact]));
  for (const row of rows('current_token_datas_v2')) {
    const key = String(canonical(row['token_data_id']));
    const fact = tokens.get(key);
    tokens.delete(key);
    const f = (field: string, expected: unknown, actual: unknown): void =>
      collector.field('current_token_datas_v2', key, field, expected, actual);
    if (row['is_deleted_v2'] === true) {
      f('is_deleted_v2', true, burned.has(key));
      if (!fact) continue;
    }
    if (!fact) {
      collector.row('current_token_datas_v2', key, 'missing-row', row['token_name']);
      continue;
    }
    f('collection_id', row['collection_id'], fact.collectionId);
    f('token_name', row['token_name'], fact.tokenName);
    f('maximum', row['maximum'], fact.maximum);
    f('supply', row['supply'], fact.supply);
    f('largest_property_version_v1', row['largest_property_version_v1'], fact.largestPropertyVersion);
    f('token_uri', row['token_uri'], fact.tokenUri);
    f('description', row['description'], fact.description);
    f('token_properties', row['token_properties'], fact.properties);
    f('token_standard', row['token_standard'], fact.tokenStandard);
  }
  for (const [key] of tokens) collector.row('current_token_datas_v2', key, 'extra-row', null);

  const ownerships = new Map(
    decoded
      .flatMap((tx) => tx.ownerships)
      .map((fact) => [`${fact.tokenDataId}/${fact.propertyVersion}/${fact.owner}`, fact]),
  );
  for (const row of rows('current_token_ownerships_v2')) {
    const key = `${canonical(row['token_data_id'])}/${row['property_version_v1']}/${canonical(row['owner_address'])}`;
    const fact = ownerships.get(key);
    ownerships.delete(key);
    if (!fact) {
      collector.row('current_token_ownerships_v2', key, 'missing-row', row['amount']);
      continue;
    }
    const f = (field: string, expected: unknown, actual: unknown): void =>
      collector.field('current_token_ownerships_v2', key, field, expected, actual);
    f('amount', row['amount'], fact.amount);
    f('token_standard', row['token_standard'], fact.tokenStandard);
    if (fact.tokenStandard === 'v1') {
      f('storage_id', row['storage_id'], fact.tableHandle);
      const mutated = row['token_properties_mutated_v1'];
      const hasMutated = mutated !== null && typeof mutated === 'object' && Object.keys(mutated).length > 0;
      f('token_properties_mutated_v1', hasMutated ? mutated : null, fact.tokenProperties ?? null);
    } else {
      f('non_transferrable_by_owner', row['non_transferrable_by_owner'], fact.isSoulbound);
    }
  }
  for (const [key, fact] of ownerships)
    collector.row('current_token_ownerships_v2', key, 'extra-row', fact.amount);

  const collections = new Map(
    decoded.flatMap((tx) => tx.collections).map((fact) => [fact.collectionId, fact]),
  );
  for (const row of rows('current_collections_v2')) {
    const key = String(canonical(row['collection_id']));
    const fact = collections.get(key);
    collections.delete(key);
    if (!fact) {
      collector.row('current_collections_v2', key, 'missing-row', row['collection_name']);
      continue;
    }
    const f = (field: string, expected: unknown, actual: unknown): void =>
      collector.field('current_collections_v2', key, field, expected, actual);
    f('creator_address', row['creator_address'], fact.creatorAddress);
    f('collection_name', row['collection_name'], fact.collectionName);
    f('description', row['description'], fact.description);
    f('uri', row['uri'], fact.uri);
    f('current_supply', row['current_supply'], fact.currentSupply);
    f('max_supply', row['max_supply'], fact.maxSupply);
    f('total_minted_v2', row['total_minted_v2'], fact.totalMinted);
    f('token_standard', row['token_standard'], fact.tokenStandard);
  }
  for (const [key] of collections) collector.row('current_collections_v2', key, 'extra-row', null);

  const claims = new Map(
    decoded
      .flatMap((tx) => tx.pendingClaims)
      .map((fact) => [
        `${fact.tokenDataId}/${fact.propertyVersion}/${fact.fromAddress}/${fact.toAddress}`,
        fact,
      ]),
  );
  for (const row of rows('current_token_pending_claims')) {
    const key = `${canonical(row['token_data_id'])}/${row['property_version']}/${canonical(row['from_address'])}/${canonical(row['to_address'])}`;
    const fact = claims.get(key);
    claims.delete(key);
    if (!fact) {
      collector.row('current_token_pending_claims', key, 'missing-row', row['amount']);
      continue;
    }
    collector.field('current_token_pending_claims', key, 'amount', row['amount'], fact.amount);
    collector.field(
      'current_token_pending_claims',
      key,
      'collection_id',
      row['collection_id'],
      fact.collectionId,
    );
  }
  for (const [key] of claims) collector.row('current_token_pending_claims', key, 'extra-row', null);
  return collector;
}
