import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { LRUCache } from 'lru-cache';

export interface CachedMedia {
  body: Buffer;
  /** Strong: the SHA-256 of the bytes. */
  etag: string;
}

interface Entry {
  file: string;
  size: number;
  etag: string;
}

/**
 * Thumbnails on disk, one file per (source, width, format) under a hash of it, capped in bytes:
 * past the cap the least recently used files are deleted. Files written by another process (the
 * worker pre-rendering) are adopted on first use, so the API and the worker can share a directory.
 */
export class MediaCache {
  private readonly index: LRUCache<string, Entry>;

  constructor(
    private readonly dir: string,
    maxBytes: number,
  ) {
    this.index = new LRUCache<string, Entry>({
      maxSize: maxBytes,
      sizeCalculation: (entry) => Math.max(1, entry.size),
      // Evicted (or replaced) entries leave the disk too.
      dispose: (entry, _key, reason) => {
        if (reason === 'evict' || reason === 'delete') void unlink(entry.file).catch(() => {});
      },
    });
  }

  /** Adopts the files already on disk, oldest first, so that the cap holds from the start. */
  async load(): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    const found: { key: string; file: string; size: number; at: number }[] = [];
    for (const sub of await readdir(this.dir).catch(() => [])) {
      for (const name of await readdir(join(this.dir, sub)).catch(() => [])) {
        if (name.endsWith('.tmp')) continue;
        const file = join(this.dir, sub, name);
        const info = await stat(file).catch(() => null);
        if (info?.isFile()) found.push({ key: name, file, size: info.size, at: info.atimeMs });
      }
    }
    found.sort((a, b) => a.at - b.at);
    for (const f of found) this.index.set(f.key, { file: f.file, size: f.size, etag: '' });
  }

  static keyOf(source: string, width: number, format: string): string {
    return `${createHash('sha256').update(`${source}\n${width}\n${format}`).digest('hex')}.${format}`;
  }

  private fileOf(key: string): string {
    return join(this.dir, key.slice(0, 2), key);
  }

  async get(key: string): Promise<CachedMedia | null> {
    const entry = this.index.get(key);
    const file = entry?.file ?? this.fileOf(key);
    const body = await readFile(file).catch(() => null);
    if (!body) {
      if (entry) this.index.delete(key);
      return null;
    }
    const etag = entry?.etag || etagOf(body);
    this.index.set(key, { file, size: body.length, etag });
    return { body, etag };
  }

  async put(key: string, body: Buffer): Promise<CachedMedia> {
    const file = this.fileOf(key);
    await mkdir(join(this.dir, key.slice(0, 2)), { recursive: true });
    // Write then rename: a reader never sees half a file.
    const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
    await writeFile(tmp, body);
    await rename(tmp, file);
    const etag = etagOf(body);
    this.index.set(key, { file, size: body.length, etag });
    return { body, etag };
  }

  /** Bytes the index holds (for tests and metrics). */
  get size(): number {
    return this.index.calculatedSize;
  }
}

function etagOf(body: Buffer): string {
  return `"${createHash('sha256').update(body).digest('base64url')}"`;
}
