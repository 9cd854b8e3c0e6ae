/**
 * The one configuration reader of Herald's processes (configuration/): its rules, its refusal of
 * unknown HERALD_* names and its guard against a process reading a variable the table does not
 * give it.
 */
import { describe, expect, it } from 'vitest';
import { ConfigurationError, EnvironmentReader, HERALD_VARIABLE_LIST, HERALD_VARIABLES, unknownVariables } from '../src/index.js';

describe('EnvironmentReader', () => {
  it('reads integers of decimal digits only, within their range', () => {
    const read = (text: string) => new EnvironmentReader({ PORT: text }, 'herald serve').read(HERALD_VARIABLES.apiPort);
    expect(read('08080')).toBe(8080);
    expect(read('0')).toBe(0);
    for (const text of ['0x1F90', '8e3', '-1', '65536', '80 ', '9007199254740993']) {
      expect(() => read(text), text).toThrow(new ConfigurationError(`PORT must be an integer from 0 to 65535 (got "${text}")`));
    }
  });

  it('takes an empty value as unset', () => {
    const reader = new EnvironmentReader({ PORT: '', HERALD_SECRET_KEY: '' }, 'herald-delivery');
    expect(reader.read(HERALD_VARIABLES.workerPort)).toBe(9464);
    expect(reader.read(HERALD_VARIABLES.secretKey)).toBeUndefined();
    expect(reader.isSet(HERALD_VARIABLES.secretKey)).toBe(false);
  });

  it('refuses HERALD_* names no process reads, and nothing else', () => {
    expect(unknownVariables({ HERALD_TYPO: '1', HERALD_PROJECTS: 'a', PATH: '/bin', HERALDRY: 'x' })).toEqual(['HERALD_TYPO']);
    expect(() => new EnvironmentReader({ HERALD_TYPO: '1' }, 'herald-delivery')).toThrow(ConfigurationError);
    expect(() => new EnvironmentReader({ HERALD_PROJECTS: 'shop' }, 'herald-delivery')).not.toThrow();
  });

  it('will not let a process read what the table does not give it', () => {
    const reader = new EnvironmentReader({}, 'herald-delivery');
    expect(() => reader.read(HERALD_VARIABLES.projects)).toThrow(/HERALD_PROJECTS is not read by herald-delivery/);
  });

  it('names each variable once per process', () => {
    for (const process of ['herald serve', 'herald-delivery'] as const) {
      const names = HERALD_VARIABLE_LIST.filter((variable) => variable.readBy.includes(process)).map((variable) => variable.name);
      expect(new Set(names).size, process).toBe(names.length);
    }
  });
});
