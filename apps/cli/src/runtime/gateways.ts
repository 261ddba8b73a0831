import type { Config } from '@mdq/config';

/**
 * The gateways and trusted origins of every metadata fetch (URI cache, metadata crawler, media),
 * shared by the worker, the API's utility route and the thumbnails. `devnetOrigin` is the embedded
 * devnet's own server in `mdq start`: its documents sit on a loopback address the SSRF guard refuses
 * otherwise.
 */
export function gateways(
  config: Config,
  devnetOrigin?: string,
): { ipfsGateways: string[]; arweaveGateway: string; trustedOrigins: string[] } {
  return {
    ipfsGateways: config.ipfsGateways,
    arweaveGateway: config.arweaveGateway,
    trustedOrigins: devnetOrigin ? [...config.trustedOrigins, devnetOrigin] : config.trustedOrigins,
  };
}
