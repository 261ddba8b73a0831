import { responseCacheKeyScenarios } from './support/response-cache-keys-scenarios';

// The answers keyed on the write counters, read per request (support/response-cache-keys-scenarios.ts).
responseCacheKeyScenarios('counters');
