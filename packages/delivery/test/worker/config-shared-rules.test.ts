/**
 * Issue 25: `herald-delivery` reads its environment by the one configuration table and rules of
 * @herald/model, as `herald serve` does: unknown HERALD_* names are refused (not only
 * HERALD_DELIVERY_* ones), names another Herald process reads are accepted, integers are decimal
 * digits only and an empty value is unset.
 */
import { HERALD_VARIABLES, variablesReadBy } from '@herald/model';
import { DEFAULT_DATABASE_URL } from '@herald/store';
import { describe, expect, it } from 'vitest';
import { MIN_SECRET_KEY_LENGTH } from '../../src/secrets/secret-box.js';
import { parseWorkerConfig, WorkerConfigError } from '../../src/worker/config.js';

const integerVariables = variablesReadBy('herald-delivery').filter((variable) => variable.rule.kind === 'integer');

function refusal(env: Record<string, string>): string {
  try {
    parseWorkerConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(WorkerConfigError);
    return (error as Error).message;
  }
  throw new Error(`accepted ${JSON.stringify(env)}`);
}

describe('herald-delivery: one set of configuration rules', () => {
  it('refuses a HERALD_* name that no Herald process reads, naming it', () => {
    expect(refusal({ HERALD_TYPO: '1' })).toMatch(/^unknown variable\(s\) HERALD_TYPO: no Herald process reads them/);
    expect(refusal({ HERALD_PROJECT: 'shop', HERALD_DELIVERY_SEND_BACH: '5' })).toContain('HERALD_PROJECT, HERALD_DELIVERY_SEND_BACH');
  });

  it("accepts the gateway's variables, so that one environment file serves both processes", () => {
    const config = parseWorkerConfig({
      HERALD_PROJECTS: 'shop',
      HERALD_MODE: 'development',
      HERALD_DELIVERY: 'off',
      HERALD_BOOTSTRAP_CLIENT: 'admin:long-enough-secret',
      HERALD_TOKEN_TTL_SECONDS: '3600',
      HOST: '0.0.0.0',
    });
    expect(config.sendBatchSize).toBe(100);
  });

  it.each(['1e4', '0x10', '+5', '5.0', ' 5', '5 ', '٣'])('refuses the integer %j, naming the variable and echoing the value', (text) => {
    for (const variable of integerVariables) {
      expect(refusal({ [variable.name]: text }), variable.name).toBe(`${variable.name} must be ${variable.rule.accepts} (got "${text}")`);
    }
  });

  it('takes the default for an empty value of every variable', () => {
    const empty = Object.fromEntries(variablesReadBy('herald-delivery').map((variable) => [variable.name, '']));
    expect(parseWorkerConfig(empty)).toEqual(parseWorkerConfig({}));
  });

  it('never echoes a secret it refuses', () => {
    const message = refusal({ HERALD_SECRET_KEY: 'short-secret' });
    expect(message).toBe(`HERALD_SECRET_KEY must be at least ${MIN_SECRET_KEY_LENGTH} characters (got 12)`);
    expect(refusal({ HERALD_DELIVERY_LISTEN: 'yes', DATABASE_URL: 'mysql://user:pw-1234@db/x' })).not.toContain('pw-1234');
  });

  it("shares the store's default database and the secret box's key length", () => {
    expect(HERALD_VARIABLES.databaseUrl.fallback).toBe(DEFAULT_DATABASE_URL);
    expect(parseWorkerConfig({}).databaseUrl).toBe(DEFAULT_DATABASE_URL);
    expect(() => parseWorkerConfig({ HERALD_SECRET_KEY: 'k'.repeat(MIN_SECRET_KEY_LENGTH - 1) })).toThrow(WorkerConfigError);
    expect(parseWorkerConfig({ HERALD_SECRET_KEY: 'k'.repeat(MIN_SECRET_KEY_LENGTH) }).secretKey).toHaveLength(MIN_SECRET_KEY_LENGTH);
  });
});
