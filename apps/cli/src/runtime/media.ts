import type { Config } from '@mdq/config';
import type { Db } from '@mdq/db';
import type { MediaRenderer } from '@mdq/worker';
import { gateways } from './gateways';

/**
 * The thumbnail renderer on the configured cache directory: the API serves from it and the
 * worker pre-renders into it, whether they run in one process or several.
 */
export async function mediaRendererFor(
  config: Config,
  db: Db,
  devnetOrigin?: string,
): Promise<MediaRenderer> {
  const { createMediaRenderer } = await import('@mdq/worker');
  return createMediaRenderer({
    db,
    cacheDir: config.mediaCacheDir,
    cacheBytes: config.mediaCacheBytes,
    ...gateways(config, devnetOrigin),
  });
}
