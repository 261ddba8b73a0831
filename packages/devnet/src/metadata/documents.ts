import { drawTraits } from '../world/traits';
import type { CollectionSpec, World } from '../world/world';
import { documentTraits } from './plan';

/** The JSON document of one token (ERC-1155 based, the spec's metadata format). */
export function tokenDocument(
  world: World,
  spec: CollectionSpec,
  serial: number,
  revision: number,
): Record<string, unknown> {
  const drawn = drawTraits(world.config.seed, spec.index, serial, spec.traits).values;
  const traits = spec.lootbox >= 0 ? {} : documentTraits(spec.metadata, spec.traits, drawn, revision);
  const image = `${spec.uri}/${serial}.png`;
  return {
    name: `${spec.name} #${serial}`,
    description: `Token ${serial} of ${spec.name}, served by the mdq devnet.`,
    image,
    external_url: `${spec.uri}/${serial}`,
    attributes: Object.entries(traits).map(([trait_type, value]) => ({ trait_type, value })),
    properties: { files: [{ uri: image, type: 'image/png' }], category: 'image' },
  };
}

/** The collection's document. */
export function collectionDocument(spec: CollectionSpec): Record<string, unknown> {
  return {
    name: spec.name,
    description: spec.description,
    image: `${spec.uri}/image.png`,
    external_url: spec.uri,
  };
}
