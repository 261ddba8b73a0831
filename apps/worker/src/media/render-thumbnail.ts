import sharp, { type Sharp } from 'sharp';

export const THUMBNAIL_WIDTHS = [64, 256, 512, 1024] as const;
export const THUMBNAIL_FORMATS = ['webp', 'avif', 'png'] as const;
export type ThumbnailWidth = (typeof THUMBNAIL_WIDTHS)[number];
export type ThumbnailFormat = (typeof THUMBNAIL_FORMATS)[number];

/** An original this service will not turn into a thumbnail (unsafe, too large, not an image). */
export class MediaRefusedError extends Error {
  override name = 'MediaRefusedError';
}

/** Decoded pixels at most (a 10,000 × 10,000 original): bounds memory whatever the file claims. */
const MAX_INPUT_PIXELS = 100_000_000;
const MAX_SVG_BYTES = 1 << 20;
const RASTER_FORMATS = new Set(['jpeg', 'png', 'webp', 'gif', 'avif', 'heif', 'tiff']);

export const CONTENT_TYPES: Record<ThumbnailFormat, string> = {
  webp: 'image/webp',
  avif: 'image/avif',
  png: 'image/png',
};

function looksLikeSvg(bytes: Buffer): boolean {
  const head = bytes.subarray(0, 1024).toString('utf8').trimStart().toLowerCase();
  return head.startsWith('<svg') || head.startsWith('<?xml') || head.includes('<svg');
}

/**
 * SVG is rasterised, never served: and only a self-contained one. librsvg would otherwise follow
 * external references (href to a URL or a file, CSS url(), XML entities) from a document anyone
 * can deploy, which is the SSRF and file-read hole the fetcher exists to close.
 */
function checkSvg(bytes: Buffer): void {
  if (bytes.length > MAX_SVG_BYTES) throw new MediaRefusedError(`SVG larger than ${MAX_SVG_BYTES} bytes`);
  const text = bytes.toString('utf8');
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) throw new MediaRefusedError('SVG with a DOCTYPE or entities');
  for (const match of text.matchAll(/\bhref\s*=\s*["']([^"']*)["']/gi)) {
    const target = (match[1] ?? '').trim();
    if (!target.startsWith('#') && !/^data:image\/(png|jpeg|gif|webp);/i.test(target)) {
      throw new MediaRefusedError('SVG with an external reference');
    }
  }
  if (/url\(\s*["']?(?!#)/i.test(text) || /@import/i.test(text)) {
    throw new MediaRefusedError('SVG with an external style reference');
  }
}

/**
 * The original resized to fit a `width` square (never enlarged) and encoded. Animated originals
 * give their first frame (sharp reads one page unless told otherwise); EXIF orientation is applied.
 */
export async function renderThumbnail(
  original: Buffer,
  width: ThumbnailWidth,
  format: ThumbnailFormat,
): Promise<Buffer> {
  const svg = looksLikeSvg(original);
  if (svg) checkSvg(original);
  let image: Sharp;
  try {
    image = sharp(original, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error', pages: 1 });
    const meta = await image.metadata();
    const kind = meta.format ?? 'unknown';
    if (!(svg ? kind === 'svg' : RASTER_FORMATS.has(kind))) {
      throw new MediaRefusedError(`unsupported image format ${kind}`);
    }
    if ((meta.width ?? 0) * (meta.height ?? 0) > MAX_INPUT_PIXELS) {
      throw new MediaRefusedError(`image of ${meta.width} × ${meta.height} pixels is too large`);
    }
  } catch (error) {
    if (error instanceof MediaRefusedError) throw error;
    throw new MediaRefusedError(`not a readable image: ${(error as Error).message}`);
  }
  const resized = image.rotate().resize({ width, height: width, fit: 'inside', withoutEnlargement: true });
  try {
    if (format === 'webp') return await resized.webp({ quality: 80 }).toBuffer();
    if (format === 'avif') return await resized.avif({ quality: 50, effort: 2 }).toBuffer();
    return await resized.png({ compressionLevel: 8 }).toBuffer();
  } catch (error) {
    throw new MediaRefusedError(`cannot render the image: ${(error as Error).message}`);
  }
}
