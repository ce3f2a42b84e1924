// The check lives with the condition language, the lowest layer, so that its options can use it
// too; every other layer imports it from here.
export { assertKnownKeys, nearestKey } from '../rules/_internals/knownKeys.js';
