import { createHash } from 'node:crypto';
import sharp from 'sharp';

const SIZE = 64;

/**
 * A small PNG for a token or collection: two colour bands picked from a hash of `key`, so every
 * token looks different and the same token always gets the same bytes.
 */
export async function generatedImage(key: string): Promise<Buffer> {
  const h = createHash('sha256').update(key).digest();
  const band = (offset: number) => ({ r: h[offset] ?? 0, g: h[offset + 1] ?? 0, b: h[offset + 2] ?? 0 });
  const lower = await sharp({
    create: { width: SIZE, height: SIZE / 2, channels: 3, background: band(3) },
  })
    .png()
    .toBuffer();
  return sharp({ create: { width: SIZE, height: SIZE, channels: 3, background: band(0) } })
    .composite([{ input: lower, top: SIZE / 2, left: 0 }])
    .png()
    .toBuffer();
}
