export { ConfigurationError, EnvironmentReader, refusalMessage, unknownVariables, type Environment } from './reader.js';
export { accepted as acceptedValue, refused as refusedValue, type Parsed, type Refusal, type Rule, type RuleKind } from './rules.js';
export { HERALD_VARIABLE_LIST, HERALD_VARIABLES, variablesReadBy, type HeraldVariables } from './table.js';
export { LOG_LEVELS, type BootstrapClient, type LogLevel } from './gateway-variables.js';
export { HERALD_PROCESSES, type HeraldProcess, type Variable } from './variable.js';
