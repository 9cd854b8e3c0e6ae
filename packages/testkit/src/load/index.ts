export { runHttpLoad, percentile, type LoadOptions, type LoadResult } from './http-load.js';
