export { stateFingerprint } from '@mdq/db/testing';
