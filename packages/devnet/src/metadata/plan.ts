import type { TraitSchema } from '../world/traits';

/** Where a collection keeps its traits (issue #41: marketplaces read both, mdq merges them). */
export type TraitSource = 'chain' | 'document' | 'both';

/** How a token's document URI misbehaves, for the crawler's failure paths. */
export type MetadataFault = 'not-found' | 'invalid-json' | 'slow' | 'oversized' | 'private-redirect';

export interface CollectionMetadataPlan {
  source: TraitSource;
  /** Per trait key of the schema: on the on-chain property map, in the document. */
  onChain: boolean[];
  inDocument: boolean[];
  /**
   * `both` only: the key both name, with a different value in the document (the next value of the
   * key's list), so precedence shows. -1 otherwise.
   */
  conflict: number;
  /** Token serials whose document URI misbehaves, and how. */
  faults: ReadonlyMap<number, MetadataFault>;
}

const FAULTS: readonly MetadataFault[] = [
  'not-found',
  'invalid-json',
  'slow',
  'oversized',
  'private-redirect',
];

/**
 * The trait placement of ordinary collection `index` (lootbox collections keep their tier on chain):
 * by index mod 3 on chain only, in both (even keys on chain, odd keys in the document, key 0 in both
 * with a conflicting value), or in the document only. The first document-only collection (index 2)
 * also has misbehaving document URIs, one fault per serial from 1 (FAULTS).
 */
export function metadataPlan(index: number, lootbox: boolean, schema: TraitSchema): CollectionMetadataPlan {
  const keys = schema.keys.length;
  const source: TraitSource = lootbox
    ? 'chain'
    : ((['chain', 'both', 'document'] as const)[index % 3] ?? 'chain');
  const onChain = Array.from(
    { length: keys },
    (_, k) => source === 'chain' || (source === 'both' && k % 2 === 0),
  );
  const inDocument = Array.from(
    { length: keys },
    (_, k) => !lootbox && (source === 'document' || (source === 'both' && (k % 2 === 1 || k === 0))),
  );
  const faults = new Map<number, MetadataFault>(
    !lootbox && index === 2 ? FAULTS.map((fault, i) => [i + 1, fault] as const) : [],
  );
  return { source, onChain, inDocument, conflict: source === 'both' ? 0 : -1, faults };
}

/**
 * The document's traits of one token (from its drawn value indexes, -1 = absent): the keys the plan
 * puts in the document, the conflict key with the next value of its list, and after `revision`
 * revisions (the devnet's stand-in for a creator editing a document) the first document trait
 * suffixed " (rev N)".
 */
export function documentTraits(
  plan: CollectionMetadataPlan,
  schema: TraitSchema,
  drawn: readonly number[],
  revision: number,
): Record<string, string> {
  const out: Record<string, string> = {};
  drawn.forEach((v, k) => {
    if (v < 0 || !plan.inDocument[k]) return;
    const values = schema.values[k] ?? [];
    const at = k === plan.conflict ? (v + 1) % values.length : v;
    out[schema.keys[k] as string] = values[at] as string;
  });
  const first = Object.keys(out)[0];
  if (revision > 0 && first !== undefined) out[first] = `${out[first]} (rev ${revision})`;
  return out;
}

/** The on-chain property map's traits of one token. */
export function chainTraits(
  plan: CollectionMetadataPlan,
  schema: TraitSchema,
  drawn: readonly number[],
): Record<string, string> {
  const out: Record<string, string> = {};
  drawn.forEach((v, k) => {
    if (v >= 0 && plan.onChain[k]) out[schema.keys[k] as string] = schema.values[k]?.[v] as string;
  });
  return out;
}

/**
 * What a marketplace reading both sources shows, by mdq's documented precedence: the document's
 * traits, then the property map's over them (the chain wins a conflict). A token whose document
 * cannot be read has its on-chain traits only.
 */
export function mergedTraits(
  chain: Record<string, string>,
  document: Record<string, string> | null,
): Record<string, string> {
  return { ...(document ?? {}), ...chain };
}
