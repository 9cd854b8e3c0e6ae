export { freePort } from './ports.js';
export { startPostgres, postgresAvailable, type RunningService } from './postgres.js';
export { startRedis, redisAvailable } from './redis.js';
export { testDatabaseUrls, createIsolatedDatabase } from './databases.js';
export { nodeRuntime, NODE_RUNTIMES, type NodeRuntime } from './node-runtime.js';
export { awsChainOnlyEnvironment } from './aws-environment.js';
