/**
 * Checks a token or collection metadata document against the spec's format (ERC-1155 based):
 * errors break the format (wrong type, bad URL, missing required field); warnings are the creators'
 * recommendations this service can check from the document alone.
 */
interface MetadataIssue {
  /** JSON path of the offending value, e.g. `$.properties.files[0].uri`. */
  path: string;
  message: string;
}

export interface MetadataReport {
  valid: boolean;
  errors: MetadataIssue[];
  warnings: MetadataIssue[];
}

export type MetadataKind = 'token' | 'collection';

const URL_SCHEMES = new Set(['http:', 'https:', 'ipfs:', 'ar:']);
const PERMANENT_SCHEMES = new Set(['ipfs:', 'ar:']);
// Gateways in front of permanent storage count as permanent: the content address is in the path.
const PERMANENT_HOSTS = [
  /(^|\.)arweave\.net$/,
  /(^|\.)ipfs\.io$/,
  /\.ipfs\.[a-z0-9.-]+$/,
  /(^|\.)irys\.xyz$/,
];
const CATEGORIES = new Set(['image', 'video', 'audio', '3d', 'html', 'vr']);
const MIME = /^[a-z]+\/[a-z0-9.+-]+$/i;

class Report {
  errors: MetadataIssue[] = [];
  warnings: MetadataIssue[] = [];
  error(path: string, message: string) {
    this.errors.push({ path, message });
  }
  warn(path: string, message: string) {
    this.warnings.push({ path, message });
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A URL field: a string with a known scheme; a warning when it is not on permanent storage. */
function checkUrl(report: Report, path: string, value: unknown): void {
  if (typeof value !== 'string' || value.trim() === '') {
    report.error(path, 'must be a non-empty URL string');
    return;
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    report.error(path, 'is not a valid URL');
    return;
  }
  if (!URL_SCHEMES.has(url.protocol)) {
    report.error(path, `unsupported URL scheme '${url.protocol}' (use https, ipfs or ar)`);
    return;
  }
  if (!PERMANENT_SCHEMES.has(url.protocol) && !PERMANENT_HOSTS.some((host) => host.test(url.hostname))) {
    report.warn(path, 'not on permanent storage: prefer ipfs:// or ar:// (or their gateways)');
  }
}

function checkOptionalString(report: Report, doc: Record<string, unknown>, field: string): void {
  if (doc[field] !== undefined && typeof doc[field] !== 'string')
    report.error(`$.${field}`, 'must be a string');
}

function checkAttributes(report: Report, value: unknown): void {
  if (value === undefined) {
    report.warn(
      '$.attributes',
      'no attributes: include comprehensive traits (they drive rarity and filters)',
    );
    return;
  }
  if (!Array.isArray(value)) {
    report.error('$.attributes', 'must be an array of { trait_type, value }');
    return;
  }
  if (value.length === 0) report.warn('$.attributes', 'empty: include comprehensive traits');
  const seen = new Set<string>();
  value.forEach((attribute, i) => {
    const path = `$.attributes[${i}]`;
    if (!isObject(attribute)) {
      report.error(path, 'must be an object { trait_type, value }');
      return;
    }
    const traitType = attribute['trait_type'];
    if (typeof traitType !== 'string' || traitType.trim() === '') {
      report.error(`${path}.trait_type`, 'must be a non-empty string');
    } else if (seen.has(traitType)) {
      report.warn(`${path}.trait_type`, `duplicate trait_type '${traitType}'`);
    } else {
      seen.add(traitType);
    }
    const traitValue = attribute['value'];
    if (traitValue === undefined || traitValue === null) {
      report.error(`${path}.value`, 'is required');
    } else if (typeof traitValue === 'number' || typeof traitValue === 'boolean') {
      report.warn(`${path}.value`, 'should be a string (the format defines value as a string)');
    } else if (typeof traitValue !== 'string') {
      report.error(`${path}.value`, 'must be a string');
    }
  });
}

function checkProperties(report: Report, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (!isObject(value)) {
    report.error('$.properties', 'must be an object { files, category }');
    return undefined;
  }
  const category = value['category'];
  if (category !== undefined) {
    if (typeof category !== 'string') report.error('$.properties.category', 'must be a string');
    else if (!CATEGORIES.has(category))
      report.warn('$.properties.category', `unusual category '${category}'`);
  }
  const files = value['files'];
  if (files !== undefined) {
    if (!Array.isArray(files)) {
      report.error('$.properties.files', 'must be an array of { uri, type, cdn? }');
    } else {
      files.forEach((file, i) => {
        const path = `$.properties.files[${i}]`;
        if (!isObject(file)) {
          report.error(path, 'must be an object { uri, type, cdn? }');
          return;
        }
        checkUrl(report, `${path}.uri`, file['uri']);
        const type = file['type'];
        if (typeof type !== 'string') report.error(`${path}.type`, 'is required: a MIME type or "unknown"');
        else if (type !== 'unknown' && !MIME.test(type))
          report.error(`${path}.type`, `'${type}' is not a MIME type`);
        if (file['cdn'] !== undefined && typeof file['cdn'] !== 'boolean') {
          report.error(`${path}.cdn`, 'must be a boolean');
        }
      });
    }
  }
  return typeof category === 'string' ? category : undefined;
}

export function validateMetadata(doc: unknown, kind: MetadataKind): MetadataReport {
  const report = new Report();
  if (!isObject(doc)) {
    report.error('$', 'metadata must be a JSON object');
    return { valid: false, errors: report.errors, warnings: report.warnings };
  }
  if (doc['image'] === undefined) report.error('$.image', 'is required');
  else checkUrl(report, '$.image', doc['image']);
  if (doc['external_url'] !== undefined) checkUrl(report, '$.external_url', doc['external_url']);
  checkOptionalString(report, doc, 'name');
  checkOptionalString(report, doc, 'description');

  if (kind === 'token') {
    if (doc['animation_url'] !== undefined) checkUrl(report, '$.animation_url', doc['animation_url']);
    checkAttributes(report, doc['attributes']);
    const category = checkProperties(report, doc['properties']);
    if (
      (category === 'video' || category === 'audio' || category === '3d') &&
      doc['animation_url'] === undefined
    ) {
      report.warn(
        '$.animation_url',
        `category '${category}' without animation_url: include the animation or media`,
      );
    }
  }
  return { valid: report.errors.length === 0, errors: report.errors, warnings: report.warnings };
}
