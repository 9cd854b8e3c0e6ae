import { DEFAULT_LIMIT, MAX_LIMIT } from '@herald/store';
import { parse } from 'graphql';

/**
 * What a document may read at most, in documents: a page of `businessUnits` costs its `limit`
 * (default 20) times what each result costs, and every object field costs one per parent document
 * (a reference lookup at worst) plus what is below it. 10,000 allows a full page of 500 with a dozen nested objects each, and refuses
 * hundreds of aliased full pages (≈ 2.5 s of work for 450 of them, all within the token limit).
 */
export const MAX_QUERY_COST = 10_000;

/**
 * Tokens of one document (graphql-js `maxTokens`): bounds parsing and validation work, e.g. a
 * chain of thousands of fragments (graphql-js's fragment-cycle check and the cost walk below
 * recurse once per link) or thousands of aliased root fields (one database query each).
 */
export const MAX_DOCUMENT_TOKENS = 10_000;

/** Fields that answer a page of `limit` documents (a QueryResult). */
const PAGE_FIELDS: ReadonlySet<string> = new Set([
  'businessUnits',
  'associateRoles',
  'stagedQuotes',
  'quotes',
  'orders',
  'products',
  'productProjectionSearch',
]);

/* The AST is walked through plain properties (`kind` strings), not graphql-js classes: under vitest
   this module and mercurius may load different copies of graphql-js (see plugin.ts). */
export interface Node {
  readonly kind: string;
}
export interface NameNode extends Node {
  readonly value: string;
}
interface ValueNode extends Node {
  readonly value?: string;
  readonly name?: NameNode;
}
interface ArgumentNode extends Node {
  readonly name: NameNode;
  readonly value: ValueNode;
}
export interface SelectionSetNode extends Node {
  readonly selections: readonly SelectionNode[];
}
export interface SelectionNode extends Node {
  readonly name?: NameNode;
  readonly arguments?: readonly ArgumentNode[];
  readonly selectionSet?: SelectionSetNode;
}
interface VariableDefinitionNode extends Node {
  readonly variable: { readonly name: NameNode };
  readonly defaultValue?: ValueNode;
}
export interface DefinitionNode extends Node {
  readonly name?: NameNode;
  readonly selectionSet: SelectionSetNode;
  readonly variableDefinitions?: readonly VariableDefinitionNode[];
}

/**
 * The values the operation runs with: what the request sends, else the operation's default
 * (`$l: Int = 500`), which graphql-js uses for a variable the request leaves out; an explicit
 * `null` is sent and stays null.
 */
function effectiveVariables(operation: DefinitionNode, sent: Readonly<Record<string, unknown>>): Map<string, unknown> {
  const values = new Map<string, unknown>();
  for (const definition of operation.variableDefinitions ?? []) {
    const name = definition.variable.name.value;
    if (Object.hasOwn(sent, name)) values.set(name, sent[name]);
    else if (definition.defaultValue?.kind === 'IntValue') values.set(name, Number(definition.defaultValue.value));
  }
  return values;
}

function pageLimit(field: SelectionNode, variables: ReadonlyMap<string, unknown>): number {
  const argument = field.arguments?.find((candidate) => candidate.name.value === 'limit');
  let limit: unknown = DEFAULT_LIMIT;
  if (argument?.value.kind === 'IntValue') limit = Number(argument.value.value);
  else if (argument?.value.kind === 'Variable' && argument.value.name !== undefined) limit = variables.get(argument.value.name.value) ?? DEFAULT_LIMIT;
  // Out-of-range limits are refused by the resolver; here they count as what could be read.
  return typeof limit === 'number' && Number.isFinite(limit) ? Math.min(MAX_LIMIT, Math.max(1, Math.trunc(limit))) : DEFAULT_LIMIT;
}

/** The operation a request runs, with the document's fragments and the variables' values. */
export interface RunnableOperation {
  operation: DefinitionNode;
  fragments: ReadonlyMap<string, DefinitionNode>;
  variables: ReadonlyMap<string, unknown>;
}

/**
 * The operation a request runs, or `undefined` when the document does not parse or names no
 * runnable operation (mercurius then refuses it with the exact reason).
 */
export function runnableOperation(
  query: string,
  operationName: string | undefined,
  variables: Readonly<Record<string, unknown>> = {},
): RunnableOperation | undefined {
  let definitions: readonly DefinitionNode[];
  try {
    // The same token bound as mercurius's parse: without it a chain of 5,000 fragments parses here,
    // and the walks over it recurse once per link until the stack overflows (a 500).
    definitions = parse(query, { noLocation: true, maxTokens: MAX_DOCUMENT_TOKENS }).definitions as unknown as readonly DefinitionNode[];
  } catch {
    return undefined;
  }
  const operations = definitions.filter((definition) => definition.kind === 'OperationDefinition');
  const operation =
    operationName === undefined
      ? operations.length === 1
        ? operations[0]
        : undefined
      : operations.find((candidate) => candidate.name?.value === operationName);
  if (operation === undefined) return undefined;
  const fragments = new Map(
    definitions.filter((definition) => definition.kind === 'FragmentDefinition').map((definition) => [definition.name?.value ?? '', definition]),
  );
  return { operation, fragments, variables: effectiveVariables(operation, variables) };
}

/**
 * How deeply the operation nests fields (fragments add no level of their own). Fragments are
 * measured once each; a cycle measures nothing (validation refuses it).
 */
export function operationDepth({ operation, fragments }: RunnableOperation): number {
  const fragmentDepths = new Map<string, number>();
  const measuring = new Set<string>();
  function fragmentDepth(name: string): number {
    const known = fragmentDepths.get(name);
    if (known !== undefined) return known;
    const fragment = fragments.get(name);
    if (fragment === undefined || measuring.has(name)) return 0;
    measuring.add(name);
    const depth = selectionDepth(fragment.selectionSet);
    measuring.delete(name);
    fragmentDepths.set(name, depth);
    return depth;
  }
  function selectionDepth(selectionSet: SelectionSetNode): number {
    let depth = 0;
    for (const selection of selectionSet.selections) {
      if (selection.kind === 'FragmentSpread') depth = Math.max(depth, fragmentDepth(selection.name?.value ?? ''));
      else if (selection.kind === 'InlineFragment' && selection.selectionSet) depth = Math.max(depth, selectionDepth(selection.selectionSet));
      else if (selection.kind === 'Field') depth = Math.max(depth, 1 + (selection.selectionSet ? selectionDepth(selection.selectionSet) : 0));
    }
    return depth;
  }
  return selectionDepth(operation.selectionSet);
}

/**
 * The cost of the operation a request runs (see MAX_QUERY_COST). Costs grow linearly with the
 * count of parent documents, so each fragment is costed once per parent document and reused: a
 * chain of fragments spreading each other twice costs its sum, not a walk of every path. Cycles
 * cost nothing here (validation refuses them).
 */
export function operationCost({ operation, fragments, variables }: RunnableOperation): number {
  const fragmentCosts = new Map<string, number>();
  const costing = new Set<string>();

  function fragmentCost(name: string): number {
    const known = fragmentCosts.get(name);
    if (known !== undefined) return known;
    const fragment = fragments.get(name);
    if (fragment === undefined || costing.has(name)) return 0;
    costing.add(name);
    const cost = selectionCost(fragment.selectionSet);
    costing.delete(name);
    fragmentCosts.set(name, cost);
    return cost;
  }

  /** Documents read below one parent document. */
  function selectionCost(selectionSet: SelectionSetNode): number {
    let cost = 0;
    for (const selection of selectionSet.selections) {
      if (selection.kind === 'FragmentSpread') cost += fragmentCost(selection.name?.value ?? '');
      else if (selection.kind === 'InlineFragment' && selection.selectionSet) cost += selectionCost(selection.selectionSet);
      else if (selection.kind === 'Field' && selection.selectionSet) {
        // A page reads `limit` documents (its `results` below cost one each); any other object
        // field one document per parent, plus what is below it.
        if (PAGE_FIELDS.has(selection.name?.value ?? '')) cost += pageLimit(selection, variables) * Math.max(1, selectionCost(selection.selectionSet));
        else cost += 1 + selectionCost(selection.selectionSet);
      }
      if (cost > Number.MAX_SAFE_INTEGER) return Number.POSITIVE_INFINITY;
    }
    return cost;
  }

  return selectionCost(operation.selectionSet);
}

/** The cost of the operation a request runs, or `undefined` when there is none (runnableOperation). */
export function queryCost(query: string, operationName: string | undefined, variables: Readonly<Record<string, unknown>> = {}): number | undefined {
  const runnable = runnableOperation(query, operationName, variables);
  return runnable === undefined ? undefined : operationCost(runnable);
}
