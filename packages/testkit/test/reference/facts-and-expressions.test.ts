import { describe, expect, it } from 'vitest';
import { ReferenceChecker, type ReferenceFacts, type TypeFact } from '../../src/index.js';
import { formatTypeExpression, parseTypeExpression } from '../../src/reference/type-expression.js';
import { parseTypeIndex, typeFactOf } from '../../../../scripts/reference/raml-types.js';
import { selectTypes } from '../../../../scripts/reference/selection.js';

/** Facts written by hand for what the vendored types exercise little: unions of objects, integers. */
const facts: ReferenceFacts = {
  source: { repository: 'example/reference', commit: '0'.repeat(40) },
  types: {
    Shape: { type: 'object', discriminator: 'kind', properties: { kind: 'string' }, subtypes: { circle: 'Circle', square: 'Square', hexagon: 'Hexagon' } },
    Circle: { type: 'Shape', discriminatorValue: 'circle', properties: { radius: 'integer' } },
    Square: { type: 'Shape', discriminatorValue: 'square', properties: { side: 'number', 'label?': 'nil | string' } },
    Tag: { type: 'object', properties: { name: 'string' } },
    Note: { type: 'object', properties: { text: 'string', 'at?': 'time-only' } },
    Board: { type: 'object', properties: { items: '(Tag | Note)[]', 'shapes?': 'Shape[]', 'meta?': 'object', 'extra?': 'any' } },
  },
};
const checker = new ReferenceChecker(facts);
const check = (type: string, value: unknown) => checker.check(type, value).map((violation) => violation.message);

describe('the checker on hand-written facts', () => {
  it('unions of object types: a value matching one member passes, otherwise the closest member is reported', () => {
    expect(check('Board', { items: [{ name: 'a' }, { text: 'b', at: '10:30:00' }] })).toEqual([]);
    expect(check('Board', { items: [{ text: 'b', at: '10:30' }] })).toEqual(['Board.items[0].at: not a time-only']);
    expect(check('Board', { items: [3] })).toEqual(['Board.items[0]: not Tag | Note']);
  });

  it('integers, nil unions, bare objects and any', () => {
    const board = { items: [], meta: { anything: [1] }, extra: null };
    expect(
      check('Board', {
        ...board,
        shapes: [
          { kind: 'circle', radius: 2 },
          { kind: 'square', side: 1.5, label: null },
        ],
      }),
    ).toEqual([]);
    expect(
      check('Board', {
        ...board,
        shapes: [
          { kind: 'circle', radius: 2.5 },
          { kind: 'square', side: 1, label: 7 },
        ],
      }),
    ).toEqual(['Board.shapes[0].radius: not an integer', 'Board.shapes[1].label: not nil | string']);
    expect(check('Board', { ...board, meta: [] })).toEqual(['Board.meta: not an object']);
  });

  it('a legal discriminator value whose subtype was not vendored is reported as such', () => {
    expect(check('Shape', { kind: 'hexagon' })).toEqual([
      "Shape: facts for Hexagon (kind 'hexagon') are not vendored: add it to scripts/reference/roots.ts and regenerate",
    ]);
    expect(check('Shape', { kind: 'oval' })).toEqual(["Shape.kind: 'oval' not one of circle|square|hexagon"]);
    expect(check('Shape', {})).toEqual(['Shape.kind: required field missing']);
  });

  it('a type the facts do not hold is reported, not passed', () => {
    expect(check('Triangle', {})).toEqual(['Triangle: facts for Triangle are not vendored: add it to scripts/reference/roots.ts and regenerate']);
  });
});

describe('type expressions', () => {
  it('parses names, arrays, unions and parentheses, and writes them back in one spelling', () => {
    expect(parseTypeExpression('nil | Address')).toEqual({
      kind: 'union',
      members: [
        { kind: 'name', name: 'nil' },
        { kind: 'name', name: 'Address' },
      ],
    });
    expect(formatTypeExpression(parseTypeExpression('( A|B )[][]'))).toBe('(A | B)[][]');
    expect(formatTypeExpression(parseTypeExpression('date-only[]'))).toBe('date-only[]');
  });

  it('refuses what it does not understand instead of misreading it', () => {
    for (const source of ['A |', '(A | B', 'A[', 'A B', 'array<A>', ''])
      expect(() => parseTypeExpression(source), source).toThrow(/Unsupported type expression/);
  });
});

describe('RAML to facts (the generator, on RAML written for this test)', () => {
  it('keeps names, parents, discriminators, optionality, arrays, inline enums and pattern properties; drops the rest', () => {
    const raml = [
      '#%RAML 1.0 DataType',
      '(package): Example',
      'type: Shape',
      'displayName: Circle',
      'discriminatorValue: circle',
      'example: !include ../../examples/circle.json',
      'description: A round shape.',
      'properties:',
      '  radius:',
      '    type: number',
      '    format: int64',
      '    description: In metres.',
      '  label?: string',
      '  tags?:',
      '    type: array',
      '    items:',
      '      type: Tag',
      '  unit:',
      '    type: string',
      '    enum:',
      "      - '1.0'",
      '      - mm',
      '  /^[a-z]{2}$/:',
      '    type: nil | string',
      '  plain:',
    ].join('\n');
    expect(typeFactOf('Circle', raml)).toEqual({
      type: 'Shape',
      discriminatorValue: 'circle',
      properties: {
        radius: 'number',
        'label?': 'string',
        'tags?': 'Tag[]',
        unit: { type: 'string', enum: ['1.0', 'mm'] },
        '/^[a-z]{2}$/': 'nil | string',
        plain: 'string',
      },
    });
    expect(typeFactOf('Mode', '#%RAML 1.0 DataType\ntype: string\nenum:\n  - On\n  - Off\n')).toEqual({ type: 'string', enum: ['On', 'Off'] });
  });

  it('stops on RAML it does not handle', () => {
    expect(() => typeFactOf('Both', '#%RAML 1.0 DataType\ntype: [A, B]\n')).toThrow(/multiple inheritance/);
    expect(() => typeFactOf('Inline', '#%RAML 1.0 DataType\nproperties:\n  nested:\n    properties:\n      a: string\n')).toThrow(/inline object/);
  });

  it('reads the type index, and vendors the closure of the roots with every discriminated subtype listed', () => {
    expect(parseTypeIndex('Circle: !include shapes/Circle.raml\nShape: !include shapes/Shape.raml\n')).toEqual(
      new Map([
        ['Circle', 'shapes/Circle.raml'],
        ['Shape', 'shapes/Shape.raml'],
      ]),
    );
    // As read from RAML: no `subtypes` yet (the selection adds them), a subtype nothing refers to.
    const all = new Map<string, TypeFact>(Object.entries(facts.types));
    all.set('Shape', { type: 'object', discriminator: 'kind', properties: { kind: 'string' } });
    all.set('Hexagon', { type: 'Shape', discriminatorValue: 'hexagon' });
    all.set('Unused', { type: 'object' });
    const selected = selectTypes(all, ['Board']);
    expect([...selected.keys()].sort()).toEqual(['Board', 'Circle', 'Hexagon', 'Note', 'Shape', 'Square', 'Tag']);
    expect(selected.get('Shape')?.subtypes).toEqual({ circle: 'Circle', hexagon: 'Hexagon', square: 'Square' });
  });
});
