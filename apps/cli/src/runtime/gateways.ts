import type { Config } from '@mdq/config';

/** The collection URI cache's gateways, shared by the worker's sweeps and the API's utility route. */
export function gateways(config: Config): { ipfsGateways: string[]; arweaveGateway: string } {
  return { ipfsGateways: config.ipfsGateways, arweaveGateway: config.arweaveGateway };
}
