export { buildGateway, type Gateway, type GatewayDeps } from './app.js';
export { loadConfig, defaultConfig, ConfigError, type HeraldConfig } from './config/config.js';
export { VARIABLES } from './config/variables.js';
export type { Authenticator, AuthContext, RouteAuth } from './auth/types.js';
export { startHerald, createLogger, type RunningHerald } from './server/start.js';
export { runCli } from './cli/commands.js';
export { cleanupExpiredMessages } from './resources/messages/cleanup.js';
