import type { DocumentAttribute, DocumentFile, DocumentReport } from '@mdq/db';
import { type MetadataKind, validateMetadata } from './validate-metadata';

/** A document that is fetched but unusable (not JSON, not an object): stored as an error, not retried. */
class DocumentError extends Error {
  override name = 'DocumentError';
}

export interface ParsedDocument {
  name: string | null;
  description: string | null;
  image: string | null;
  animationUrl: string | null;
  externalUrl: string | null;
  /** Traits in document order; one per trait type (the first), values as text. */
  attributes: DocumentAttribute[];
  files: DocumentFile[] | null;
  category: string | null;
  /** The spec validation report; null for a URI that is itself an image (no document to check). */
  report: DocumentReport | null;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

/**
 * The fields mdq keeps from a token or collection document (ERC-1155 based, as the spec defines it).
 * Lenient where marketplaces are: `image_url` / `imageUrl` stand in for `image`, numeric and boolean
 * trait values become text, attributes without a trait type or value are skipped (the report names
 * them), and a repeated trait type keeps its first value.
 */
export function parseDocument(
  body: Buffer,
  contentType: string | null,
  uri: string,
  kind: MetadataKind,
): ParsedDocument {
  if (contentType?.startsWith('image/')) {
    // A URI that serves an image is the token's picture and its whole metadata.
    return {
      name: null,
      description: null,
      image: uri,
      animationUrl: null,
      externalUrl: null,
      attributes: [],
      files: null,
      category: 'image',
      report: null,
    };
  }
  let json: unknown;
  try {
    json = JSON.parse(body.toString('utf8'));
  } catch {
    throw new DocumentError('metadata is not JSON');
  }
  if (!isObject(json)) throw new DocumentError('metadata is not a JSON object');
  const properties = isObject(json['properties']) ? json['properties'] : {};
  return {
    name: text(json['name']),
    description: text(json['description']),
    image: text(json['image']) ?? text(json['image_url']) ?? text(json['imageUrl']),
    animationUrl: text(json['animation_url']),
    externalUrl: text(json['external_url']),
    attributes: attributesOf(json['attributes']),
    files: filesOf(properties['files']),
    category: text(properties['category']),
    report: validateMetadata(json, kind),
  };
}

function attributesOf(value: unknown): DocumentAttribute[] {
  if (!Array.isArray(value)) return [];
  const seen = new Set<string>();
  const out: DocumentAttribute[] = [];
  for (const entry of value) {
    if (!isObject(entry)) continue;
    const traitType = text(entry['trait_type']);
    const raw = entry['value'];
    const traitValue =
      typeof raw === 'string'
        ? raw
        : typeof raw === 'number' || typeof raw === 'boolean'
          ? String(raw)
          : null;
    if (traitType === null || traitValue === null || seen.has(traitType)) continue;
    seen.add(traitType);
    out.push({ trait_type: traitType, value: traitValue });
  }
  return out;
}

function filesOf(value: unknown): DocumentFile[] | null {
  if (!Array.isArray(value)) return null;
  return value.flatMap((file): DocumentFile[] => {
    if (!isObject(file)) return [];
    const uri = text(file['uri']);
    if (uri === null) return [];
    const cdn = file['cdn'];
    return [{ uri, type: text(file['type']), ...(typeof cdn === 'boolean' ? { cdn } : {}) }];
  });
}
