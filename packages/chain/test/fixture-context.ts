import { testFixturesRoot } from '../src/fixtures/index';
import { builtinMarketplaces, DEFAULT_LOOTBOX_ADDRESS, type DecodeOptions } from '../src/index';

/** Shared by the fixture-driven tests: where the fixtures are and the decoder options they use. */
export const FIXTURES = testFixturesRoot();
export const NO_FIXTURES = FIXTURES === null;
export const SKIP_REASON = 'skipped: ../shared/fixtures/aptos-mainnet is not next to the repository';

export const OPTIONS: DecodeOptions = {
  marketplaces: builtinMarketplaces(),
  lootboxAddress: DEFAULT_LOOTBOX_ADDRESS,
};
