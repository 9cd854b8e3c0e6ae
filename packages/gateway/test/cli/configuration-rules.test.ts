/**
 * Issue 25: `herald serve` and `herald-delivery` read their environment by one table and one set of
 * rules (@herald/model, configuration/). The gateway used to accept `PORT=0x1F90` and
 * `HERALD_TOKEN_TTL_SECONDS=1e5` (anything Number() took), where the worker refused `1e4`; the
 * worker accepted any unknown HERALD_* name, where the gateway refused it.
 */
import { parseWorkerConfig } from '@herald/delivery';
import { ConfigurationError, variablesReadBy, type Variable } from '@herald/model';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/config.js';

type Env = Record<string, string>;

function refusal(load: (env: Env) => unknown, env: Env): string {
  try {
    load(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigurationError);
    return (error as Error).message;
  }
  throw new Error(`accepted ${JSON.stringify(env)}`);
}

const gatewayRefusal = (env: Env) => refusal(loadConfig, env);
const workerRefusal = (env: Env) => refusal(parseWorkerConfig, env);
const integers = (variables: readonly Variable<unknown>[]) => variables.filter((variable) => variable.rule.kind === 'integer');

describe('herald serve: the rules herald-delivery has too', () => {
  it('refuses integers that are not decimal digits (PORT=0x1F90, HERALD_TOKEN_TTL_SECONDS=1e5)', () => {
    expect(gatewayRefusal({ PORT: '0x1F90' })).toBe('PORT must be an integer from 0 to 65535 (got "0x1F90")');
    expect(gatewayRefusal({ HERALD_TOKEN_TTL_SECONDS: '1e5' })).toBe('HERALD_TOKEN_TTL_SECONDS must be an integer from 60 to 31536000 (got "1e5")');
    for (const variable of integers(variablesReadBy('herald serve'))) {
      for (const text of ['1e3', '0x10', '+100', '100.0', ' 100']) {
        expect(gatewayRefusal({ [variable.name]: text }), `${variable.name}=${text}`).toContain(`${variable.name} must be ${variable.rule.accepts}`);
      }
    }
  });

  it('refuses a HERALD_* name no process reads, and accepts one only the worker reads', () => {
    expect(gatewayRefusal({ HERALD_TYPO: 'x' })).toMatch(/^unknown variable\(s\) HERALD_TYPO: /);
    expect(loadConfig({ HERALD_DELIVERY_HOST: '0.0.0.0' }).port).toBe(8080);
    expect(() => loadConfig({ HERALD_TYPO: 'x' })).toThrow(ConfigError);
  });

  it('gives the same refusal as the worker for a variable both read', () => {
    const envs: Env[] = [{ HERALD_DELIVERY_SEND_BATCH: '1e4' }, { LOG_LEVEL: 'verbose' }, { HERALD_DELIVERY_LISTEN: 'yes' }, { HERALD_TYPO: '1' }];
    for (const env of envs) {
      expect(gatewayRefusal(env)).toBe(workerRefusal(env));
    }
  });

  it('takes the default for an empty value of every variable', () => {
    const empty = Object.fromEntries(variablesReadBy('herald serve').map((variable) => [variable.name, '']));
    expect(loadConfig(empty)).toEqual(loadConfig({}));
    expect(loadConfig({}).port).toBe(8080);
  });

  it('never echoes a secret it refuses', () => {
    const bootstrap = gatewayRefusal({ HERALD_BOOTSTRAP_CLIENT: 'admin:short' });
    expect(bootstrap).toMatch(/^HERALD_BOOTSTRAP_CLIENT must be "id:secret"/);
    expect(bootstrap).not.toContain('short');
    expect(gatewayRefusal({ HERALD_SECRET_KEY: 'hunter2-hunter' })).not.toContain('hunter2');
  });

  it('keeps the detailed refusals of list values', () => {
    expect(gatewayRefusal({ HERALD_PROJECTS: 'shop, Bad_Key' })).toMatch(/^HERALD_PROJECTS must be project keys .* \("Bad_Key" is not a project key\)$/);
    expect(gatewayRefusal({ HERALD_TRUST_PROXY: '10.0.0.0/8,proxy' })).toMatch(
      /^HERALD_TRUST_PROXY must be .* \("proxy" is not an IP address or CIDR range\)$/,
    );
    expect(gatewayRefusal({ HERALD_TRUST_PROXY: '101' })).toMatch(/a hop count from 1 to 100.* \(got "101"\)$/);
  });
});
