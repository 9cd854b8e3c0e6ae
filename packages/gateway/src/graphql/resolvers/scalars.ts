import { GraphQLError, Kind, valueFromASTUntyped, type GraphQLScalarTypeConfig } from 'graphql';

/**
 * The behaviour of the custom scalars of schema/common.ts. Plain functions, not GraphQLScalarType
 * objects: mercurius copies them onto the scalar types it built from the SDL, so the SDL's
 * descriptions stay.
 */
type ScalarBehaviour<TInternal, TExternal> = Required<Pick<GraphQLScalarTypeConfig<TInternal, TExternal>, 'serialize' | 'parseValue' | 'parseLiteral'>>;

function safeInteger(value: unknown): number {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
  throw new GraphQLError(`Long must be a whole number within ±2^53 (got ${JSON.stringify(value)}).`);
}

/** Versions and totals: whole numbers beyond Int's 32 bits, within JSON's exact range. */
export const Long: ScalarBehaviour<number, number> = {
  serialize: safeInteger,
  parseValue: safeInteger,
  parseLiteral(ast) {
    if (ast.kind !== Kind.INT) throw new GraphQLError('Long must be an integer literal.');
    return safeInteger(Number(ast.value));
  },
};

function isoText(value: unknown): string {
  if (typeof value === 'string' && !Number.isNaN(Date.parse(value))) return value;
  throw new GraphQLError(`DateTime must be an ISO 8601 timestamp (got ${JSON.stringify(value)}).`);
}

export const DateTime: ScalarBehaviour<string, string> = {
  serialize: isoText,
  parseValue: isoText,
  parseLiteral(ast) {
    if (ast.kind !== Kind.STRING) throw new GraphQLError('DateTime must be a string literal.');
    return isoText(ast.value);
  },
};

/**
 * A scalar carried as a string: `Country` and `Locale` (the official schema's names). Their format
 * is checked where REST checks it, by the services, so both APIs refuse the same values alike.
 */
function textScalar(name: string): ScalarBehaviour<string, string> {
  const text = (value: unknown): string => {
    if (typeof value === 'string') return value;
    throw new GraphQLError(`${name} must be a string (got ${JSON.stringify(value)}).`);
  };
  return {
    serialize: text,
    parseValue: text,
    parseLiteral(ast) {
      if (ast.kind !== Kind.STRING) throw new GraphQLError(`${name} must be a string literal.`);
      return ast.value;
    },
  };
}

export const Country = textScalar('Country');
export const Locale = textScalar('Locale');
export const Currency = textScalar('Currency');

/** Custom field values: any JSON. */
export const Json: ScalarBehaviour<unknown, unknown> = {
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: (ast, variables) => valueFromASTUntyped(ast, variables),
};
