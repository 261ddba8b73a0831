export { usToIso } from './time';
export { type FailedDecode, toBatch } from './to-batch';
