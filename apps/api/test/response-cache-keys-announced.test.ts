import { responseCacheKeyScenarios } from './support/response-cache-keys-scenarios';

// The answers keyed on the announcements of the counters' changes, the API listening
// (support/response-cache-keys-scenarios.ts): the same scenarios, the same answers retired.
responseCacheKeyScenarios('announcements');
