import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { CollectionSpec, World } from '../world/world';
import { collectionDocument, tokenDocument } from './documents';
import { generatedImage } from './image';
import type { MetadataFault } from './plan';

/** Where the private-redirect fault points: the cloud metadata address every SSRF guard must refuse. */
const PRIVATE_REDIRECT_TARGET = 'http://169.254.169.254/latest/meta-data/';

/** Bytes of the oversized fault's document: past the crawler's 1 MiB cap. */
const OVERSIZED_BYTES = 3 << 19;

export interface MetadataSiteOptions {
  /** How long the `slow` fault waits before answering (default 30 s: past any crawler deadline). */
  slowMs?: number;
}

/**
 * The off-chain side of the devnet's collections: every collection URI and token URI the chain names
 * (`{origin}/metadata/collections/{slug}` and `…/{serial}.json`) answers with its deterministic
 * document, and `…/{serial}.png`, `…/image.png` with a generated image. The first document-only
 * collection's first serials misbehave (plan.ts). `revise` stands in for a creator editing a token's
 * document in place: the next fetch sees a changed trait.
 */
export class MetadataSite {
  private readonly bySlug = new Map<string, CollectionSpec>();
  private readonly revisions = new Map<string, number>();
  private readonly slowMs: number;
  private readonly closing = new AbortController();

  constructor(
    private readonly world: World,
    options: MetadataSiteOptions = {},
  ) {
    for (const spec of world.collections) {
      this.bySlug.set(spec.uri.slice(spec.uri.lastIndexOf('/') + 1), spec);
    }
    this.slowMs = options.slowMs ?? 30_000;
  }

  /** Edits a token's document (its first document trait gets " (rev N)"); returns N. */
  revise(tokenUri: string): number {
    const next = (this.revisions.get(tokenUri) ?? 0) + 1;
    this.revisions.set(tokenUri, next);
    return next;
  }

  /** Ends slow answers at once (the server is closing). */
  close(): void {
    this.closing.abort();
  }

  collection(slug: string): CollectionSpec | null {
    return this.bySlug.get(slug) ?? null;
  }

  async answer(reply: FastifyReply, spec: CollectionSpec, file: string): Promise<FastifyReply> {
    if (file === 'image.png') return reply.type('image/png').send(await generatedImage(spec.uri));
    const match = /^([1-9][0-9]{0,8})(\.json|\.png)?$/.exec(file);
    if (!match) return reply.code(404).send({ message: 'no such document' });
    const serial = Number(match[1]);
    if (match[2] === '.png')
      return reply.type('image/png').send(await generatedImage(`${spec.uri}/${serial}`));
    const fault = match[2] === '.json' ? spec.metadata.faults.get(serial) : undefined;
    if (fault) return this.misbehave(reply, fault);
    const uri = `${spec.uri}/${file}`;
    return reply.send(tokenDocument(this.world, spec, serial, this.revisions.get(uri) ?? 0));
  }

  private async misbehave(reply: FastifyReply, fault: MetadataFault): Promise<FastifyReply> {
    switch (fault) {
      case 'not-found':
        return reply.code(404).send({ message: 'no such document' });
      case 'invalid-json':
        return reply.type('application/json').send('{"name": "broken", "attributes": [');
      case 'slow':
        // Answers eventually, long after any sane deadline; the server's close ends the wait.
        if (
          await sleep(this.slowMs, undefined, { signal: this.closing.signal }).then(
            () => false,
            () => true,
          )
        )
          return reply.code(503).send({ message: 'closing' });
        return reply.send({ name: 'late' });
      case 'oversized':
        return reply.send({ name: 'huge', description: 'x'.repeat(OVERSIZED_BYTES) });
      case 'private-redirect':
        return reply.redirect(PRIVATE_REDIRECT_TARGET, 302);
    }
  }
}

/** The routes of the metadata site on the devnet's Fastify server. */
export function registerMetadataRoutes(app: FastifyInstance, site: MetadataSite): void {
  app.addHook('preClose', async () => site.close());
  app.get<{ Params: { slug: string } }>('/metadata/collections/:slug', async (req, reply) => {
    const spec = site.collection(req.params.slug);
    if (!spec) return reply.code(404).send({ message: 'no such collection' });
    return reply.send(collectionDocument(spec));
  });
  app.get<{ Params: { slug: string; file: string } }>(
    '/metadata/collections/:slug/:file',
    async (req, reply) => {
      const spec = site.collection(req.params.slug);
      if (!spec) return reply.code(404).send({ message: 'no such collection' });
      return site.answer(reply, spec, req.params.file);
    },
  );
}
