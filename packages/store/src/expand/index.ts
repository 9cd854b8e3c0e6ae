export { assertExpandPaths, expandReferences, expandReferencesInMany, type ReferenceLoader, MAX_EXPAND_PATHS, MAX_EXPANDED_REFERENCES } from './expand.js';
export { parseExpandPath, MAX_EXPAND_DEPTH, type ExpandStep, type Selector } from './paths.js';
