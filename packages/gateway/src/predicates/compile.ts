import type { Operand, Predicate } from './ast.js';
import { PredicateSyntaxError, positionOf } from './errors.js';
import { parsePredicate } from './parser.js';
import { compare, isEmptyValue, isMoneyValue, isPresent, literalType, readPath, valuesOf, type MoneyValue } from './values.js';
import { argumentKind, isKnownRoot, itemFunction, referencedTypeOf, type ItemFunction, type PredicateKind } from './vocabulary.js';

/**
 * What a predicate is evaluated against: plain data shaped like the resource the kind names (a
 * cart with `lineItems` and `customLineItems`, a line item, a product price in its variant…).
 * Building that view is the caller's part; the predicate only reads it.
 */
export type PredicateSubject = Readonly<Record<string, unknown>>;

export interface PredicateReference {
  typeId: string;
  id: string;
}

/** A predicate compiled once; `test` is then a plain function call per subject. */
export interface CompiledPredicate {
  readonly source: string;
  readonly kind: PredicateKind;
  /** Resources the predicate names by id (the reference's generated `references`). */
  readonly references: readonly PredicateReference[];
  test(subject: PredicateSubject): boolean;
}

type Test = (subject: PredicateSubject) => boolean;
type Read = (subject: PredicateSubject) => unknown;

class Compiler {
  readonly references = new Map<string, PredicateReference>();

  constructor(private readonly source: string) {}

  fail(reason: string, offset: number): never {
    throw new PredicateSyntaxError(reason, positionOf(this.source, offset));
  }

  predicate(node: Predicate, kind: PredicateKind): Test {
    switch (node.kind) {
      case 'and': {
        const [left, right] = [this.predicate(node.left, kind), this.predicate(node.right, kind)];
        return (subject) => left(subject) && right(subject);
      }
      case 'or': {
        const [left, right] = [this.predicate(node.left, kind), this.predicate(node.right, kind)];
        return (subject) => left(subject) || right(subject);
      }
      case 'not': {
        const operand = this.predicate(node.operand, kind);
        return (subject) => !operand(subject);
      }
      case 'compare':
        return this.comparison(node, kind);
      case 'in':
        return this.membership(node, kind);
      case 'contains':
        return this.containment(node, kind);
      case 'defined':
      case 'empty':
        return this.presence(node, kind);
      case 'truth':
        return this.truth(node.operand, kind);
    }
  }

  private comparison(node: Extract<Predicate, { kind: 'compare' }>, kind: PredicateKind): Test {
    const { left, right, operator } = node;
    if (left.kind === 'literal' && right.kind === 'literal' && literalType(left.value) !== literalType(right.value)) {
      this.fail(`Cannot compare a ${literalType(left.value)} with a ${literalType(right.value)}`, right.offset);
    }
    for (const side of [left, right]) {
      if (side.kind === 'literal' && typeof side.value === 'boolean' && !['=', '!=', '<>'].includes(operator)) {
        this.fail(`'${operator}' does not apply to booleans`, side.offset);
      }
    }
    this.noteReference(left, right);
    this.noteReference(right, left);
    const [readLeft, readRight] = [this.operand(left, kind), this.operand(right, kind)];
    return (subject) => compare(operator, readLeft(subject), readRight(subject));
  }

  private literals(values: readonly Operand[]): unknown[] {
    return values.map((value) => {
      if (value.kind !== 'literal') this.fail('A list holds values only, not fields', value.offset);
      return value.value;
    });
  }

  private membership(node: Extract<Predicate, { kind: 'in' }>, kind: PredicateKind): Test {
    const options = this.literals(node.values);
    node.values.forEach((value) => this.noteReference(node.operand, value));
    const read = this.operand(node.operand, kind);
    const found = (subject: PredicateSubject) => {
      const value = read(subject);
      return isPresent(value) && options.some((option) => compare('=', value, option));
    };
    return node.negated ? (subject) => isPresent(read(subject)) && !found(subject) : found;
  }

  private containment(node: Extract<Predicate, { kind: 'contains' }>, kind: PredicateKind): Test {
    const wanted = this.literals(node.values);
    node.values.forEach((value) => this.noteReference(node.operand, value));
    const read = this.operand(node.operand, kind);
    const holds = (values: unknown[], one: unknown) => values.some((value) => compare('=', value, one));
    return (subject) => {
      const values = valuesOf(read(subject));
      return node.mode === 'all' ? wanted.every((one) => holds(values, one)) : wanted.some((one) => holds(values, one));
    };
  }

  private presence(node: Extract<Predicate, { kind: 'defined' | 'empty' }>, kind: PredicateKind): Test {
    const read = this.operand(node.operand, kind);
    const check = node.kind === 'defined' ? (value: unknown) => isPresent(value) : isEmptyValue;
    return node.negated ? (subject) => !check(read(subject)) : (subject) => check(read(subject));
  }

  private truth(operand: Operand, kind: PredicateKind): Test {
    if (operand.kind === 'literal' && typeof operand.value !== 'boolean') this.fail('Expected a condition, not a value', operand.offset);
    if (operand.kind === 'call') {
      const fn = itemFunction(kind, operand.name);
      if (fn !== undefined && fn.yields !== 'exists' && fn.yields !== 'forAll') {
        this.fail(`${operand.name}(…) yields a ${fn.yields === 'count' ? 'number' : 'Money value'}; compare it with something`, operand.offset);
      }
    }
    const read = this.operand(operand, kind);
    return (subject) => read(subject) === true;
  }

  private noteReference(field: Operand, value: Operand): void {
    if (field.kind !== 'field' || value.kind !== 'literal' || typeof value.value !== 'string') return;
    const typeId = referencedTypeOf(field.path);
    if (typeId !== undefined) this.references.set(`${typeId}:${value.value}`, { typeId, id: value.value });
  }

  operand(operand: Operand, kind: PredicateKind): Read {
    switch (operand.kind) {
      case 'literal': {
        const { value } = operand;
        return () => value;
      }
      case 'field': {
        const root = operand.path[0] ?? '';
        if (!isKnownRoot(kind, root)) this.fail(`Unknown field '${operand.path.join('.')}' in a ${kind} predicate`, operand.offset);
        const { path } = operand;
        return (subject) => readPath(subject, path);
      }
      case 'call':
        return this.call(operand, kind);
    }
  }

  private call(operand: Extract<Operand, { kind: 'call' }>, kind: PredicateKind): Read {
    const fn = itemFunction(kind, operand.name);
    if (fn === undefined) this.fail(`Unknown function '${operand.name}' in a ${kind} predicate`, operand.offset);
    const test = this.predicate(operand.argument, argumentKind(fn));
    return (subject) => aggregate(fn, itemsOf(subject, fn), test, subject);
  }
}

function itemsOf(subject: PredicateSubject, fn: ItemFunction): PredicateSubject[] {
  const items = subject[fn.items];
  return Array.isArray(items) ? (items as PredicateSubject[]) : [];
}

function quantityOf(item: PredicateSubject): number {
  return typeof item.quantity === 'number' ? item.quantity : 1;
}

/** The money an item function sums: the item's total, or its taxed net / gross total. */
function moneyOf(item: PredicateSubject, yields: ItemFunction['yields']): unknown {
  if (yields === 'netTotal') return readPath(item, ['taxedPrice', 'totalNet']);
  if (yields === 'grossTotal') return readPath(item, ['taxedPrice', 'totalGross']);
  return item.totalPrice;
}

function sumMoney(items: readonly PredicateSubject[], yields: ItemFunction['yields'], currency: string | undefined): MoneyValue | undefined {
  let total: MoneyValue | undefined = currency === undefined ? undefined : { currencyCode: currency, centAmount: 0, fractionDigits: 2 };
  for (const item of items) {
    const money = moneyOf(item, yields);
    if (!isMoneyValue(money)) continue;
    total ??= { currencyCode: money.currencyCode, centAmount: 0, fractionDigits: money.fractionDigits ?? 2 };
    if (money.currencyCode !== total.currencyCode) continue;
    total = { ...total, centAmount: total.centAmount + money.centAmount, fractionDigits: money.fractionDigits ?? total.fractionDigits ?? 2 };
  }
  return total;
}

/**
 * The platform's item functions: `…Count` sums the quantities of the matching items (a line item of
 * quantity 3 counts 3), `…Total` sums their total prices in the cart's currency, `…Exists` and
 * `forAll…` are the two quantifiers (`forAll…` holds for a cart without such items).
 */
function aggregate(fn: ItemFunction, items: readonly PredicateSubject[], test: Test, cart: PredicateSubject): unknown {
  switch (fn.yields) {
    case 'exists':
      return items.some(test);
    case 'forAll':
      return items.every(test);
    case 'count':
      return items.filter(test).reduce((count, item) => count + quantityOf(item), 0);
    default:
      return sumMoney(items.filter(test), fn.yields, typeof cart.currency === 'string' ? cart.currency : undefined);
  }
}

/**
 * Compiles `source` as a predicate of `kind`, once: syntax, known fields and functions and the
 * types of literals are checked now (PredicateSyntaxError with the position), and the result
 * evaluates subjects without parsing again.
 */
export function compilePredicate(source: string, kind: PredicateKind): CompiledPredicate {
  const compiler = new Compiler(source);
  const test = compiler.predicate(parsePredicate(source), kind);
  return { source, kind, references: [...compiler.references.values()], test };
}
