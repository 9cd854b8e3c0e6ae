import { GraphQLError, GraphQLScalarType, Kind, valueFromASTUntyped } from 'graphql';

function safeInteger(value: unknown): number {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
  throw new GraphQLError(`Long must be a whole number within ±2^53 (got ${JSON.stringify(value)}).`);
}

/** Versions and totals: whole numbers beyond Int's 32 bits, within JSON's exact range. */
export const LongScalar = new GraphQLScalarType<number, number>({
  name: 'Long',
  serialize: safeInteger,
  parseValue: safeInteger,
  parseLiteral(ast) {
    if (ast.kind !== Kind.INT) throw new GraphQLError('Long must be an integer literal.', { nodes: ast });
    return safeInteger(Number(ast.value));
  },
});

function isoText(value: unknown): string {
  if (typeof value === 'string' && !Number.isNaN(Date.parse(value))) return value;
  throw new GraphQLError(`DateTime must be an ISO 8601 timestamp (got ${JSON.stringify(value)}).`);
}

export const DateTimeScalar = new GraphQLScalarType<string, string>({
  name: 'DateTime',
  serialize: isoText,
  parseValue: isoText,
  parseLiteral(ast) {
    if (ast.kind !== Kind.STRING) throw new GraphQLError('DateTime must be a string literal.', { nodes: ast });
    return isoText(ast.value);
  },
});

/** Custom field values: any JSON. */
export const JsonScalar = new GraphQLScalarType<unknown, unknown>({
  name: 'Json',
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: (ast, variables) => valueFromASTUntyped(ast, variables),
});
