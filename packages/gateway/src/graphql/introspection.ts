import { buildSchema, getIntrospectionQuery, isEnumType, isInputObjectType, isInterfaceType, isObjectType, type GraphQLSchema } from 'graphql';
import { operationDepth, runnableOperation, type RunnableOperation, type SelectionSetNode } from './query-cost.js';

/**
 * Introspection documents (`__schema`, `__type`) get bounds of their own. The standard query that
 * GraphiQL, Apollo and graphql-codegen send (graphql-js `getIntrospectionQuery()`) nests
 * `ofType` deeper than the depth limit of data queries, and reads no documents; but nesting its
 * lists (`types { fields { type { fields { … } } } }`) multiplies the answer by the schema's size
 * at every level. So such a document is bounded by what its answer can hold: every list it selects
 * counts as long as the longest such list of Herald's schema, and the sum must stay within a few
 * standard introspection answers.
 */

/** Root fields that make a document an introspection document (with `__typename` beside them). */
const INTROSPECTION_ROOTS: ReadonlySet<string> = new Set(['__schema', '__type']);

/** Depth of an introspection document: the standard query's `ofType` chain with room to spare. */
export const MAX_INTROSPECTION_DEPTH = 24;

/** How many standard introspection answers one request may ask for. */
const STANDARD_ANSWERS_ALLOWED = 4;

/** The longest list each list-valued introspection field can answer in `schema`. */
function listSizes(schema: GraphQLSchema): ReadonlyMap<string, number> {
  const types = Object.values(schema.getTypeMap());
  const fieldLists = types.flatMap((type) => (isObjectType(type) || isInterfaceType(type) ? [Object.values(type.getFields())] : []));
  const longest = (lengths: number[]) => Math.max(1, ...lengths);
  return new Map([
    ['types', types.length],
    ['fields', longest(fieldLists.map((fields) => fields.length))],
    ['args', longest([...fieldLists.flat().map((field) => field.args.length), ...schema.getDirectives().map((directive) => directive.args.length)])],
    ['inputFields', longest(types.map((type) => (isInputObjectType(type) ? Object.keys(type.getFields()).length : 0)))],
    ['enumValues', longest(types.map((type) => (isEnumType(type) ? type.getValues().length : 0)))],
    ['interfaces', longest(types.map((type) => (isObjectType(type) || isInterfaceType(type) ? type.getInterfaces().length : 0)))],
    ['possibleTypes', types.length],
    ['directives', schema.getDirectives().length],
  ]);
}

/** Whether the operation selects only introspection at its root (`__typename` may come along). */
export function isIntrospection({ operation, fragments }: RunnableOperation): boolean {
  const rootFields: string[] = [];
  const collect = (selectionSet: SelectionSetNode, seen: Set<string>): void => {
    for (const selection of selectionSet.selections) {
      if (selection.kind === 'Field') rootFields.push(selection.name?.value ?? '');
      else if (selection.kind === 'InlineFragment' && selection.selectionSet) collect(selection.selectionSet, seen);
      else if (selection.kind === 'FragmentSpread') {
        const name = selection.name?.value ?? '';
        const fragment = fragments.get(name);
        if (fragment !== undefined && !seen.has(name)) collect(fragment.selectionSet, seen.add(name));
      }
    }
  };
  collect(operation.selectionSet, new Set());
  return rootFields.some((name) => INTROSPECTION_ROOTS.has(name)) && rootFields.every((name) => INTROSPECTION_ROOTS.has(name) || name === '__typename');
}

/** The objects an introspection answer can hold at most: each list as long as `sizes` says. */
function answerSize({ operation, fragments }: RunnableOperation, sizes: ReadonlyMap<string, number>): number {
  const fragmentSizes = new Map<string, number>();
  const measuring = new Set<string>();
  function fragmentSize(name: string): number {
    const known = fragmentSizes.get(name);
    if (known !== undefined) return known;
    const fragment = fragments.get(name);
    if (fragment === undefined || measuring.has(name)) return 0;
    measuring.add(name);
    const size = selectionSize(fragment.selectionSet);
    measuring.delete(name);
    fragmentSizes.set(name, size);
    return size;
  }
  function selectionSize(selectionSet: SelectionSetNode): number {
    let size = 0;
    for (const selection of selectionSet.selections) {
      if (selection.kind === 'FragmentSpread') size += fragmentSize(selection.name?.value ?? '');
      else if (selection.kind === 'InlineFragment' && selection.selectionSet) size += selectionSize(selection.selectionSet);
      else if (selection.kind === 'Field' && selection.selectionSet) {
        size += (sizes.get(selection.name?.value ?? '') ?? 1) * (1 + selectionSize(selection.selectionSet));
      }
      if (size > Number.MAX_SAFE_INTEGER) return Number.POSITIVE_INFINITY;
    }
    return size;
  }
  return selectionSize(operation.selectionSet);
}

/** The bounds of introspection documents against one schema. */
export class IntrospectionBounds {
  private readonly sizes: ReadonlyMap<string, number>;
  /** The largest answer allowed, in objects: a few answers of the standard query. */
  readonly maxAnswerSize: number;

  constructor(typeDefs: string) {
    this.sizes = listSizes(buildSchema(typeDefs));
    const standard = runnableOperation(getIntrospectionQuery(FULLEST_STANDARD_QUERY), undefined);
    if (standard === undefined) throw new Error('graphql-js getIntrospectionQuery() did not parse');
    this.maxAnswerSize = STANDARD_ANSWERS_ALLOWED * answerSize(standard, this.sizes);
  }

  /** Why the introspection document is refused, or undefined when it is within the bounds. */
  refusal(operation: RunnableOperation): { code: string; message: string } | undefined {
    const depth = operationDepth(operation);
    if (depth > MAX_INTROSPECTION_DEPTH) {
      return { code: 'QueryDepthExceeded', message: `The introspection query nests ${depth} levels deep; at most ${MAX_INTROSPECTION_DEPTH}.` };
    }
    if (answerSize(operation, this.sizes) > this.maxAnswerSize) {
      return {
        code: 'QueryComplexityExceeded',
        message: `The introspection query could answer more than ${STANDARD_ANSWERS_ALLOWED} times the standard introspection query (getIntrospectionQuery()) does; select fewer nested lists.`,
      };
    }
    return undefined;
  }
}

/** Every option of graphql-js's standard query: the largest shape the common tools send. */
const FULLEST_STANDARD_QUERY = {
  descriptions: true,
  specifiedByUrl: true,
  directiveIsRepeatable: true,
  schemaDescription: true,
  inputValueDeprecation: true,
  oneOf: true,
} as const;
