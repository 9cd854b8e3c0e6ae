/**
 * RAML 1.0 type expressions as the official reference writes them in `type:` and property
 * declarations: a name (`string`, `date-only`, `Address`), an array (`Address[]`), a union
 * (`nil | Address`, `A | B`), and parentheses (`(A | B)[]`).
 */
export type TypeExpression =
  | { readonly kind: 'name'; readonly name: string }
  | { readonly kind: 'array'; readonly items: TypeExpression }
  | { readonly kind: 'union'; readonly members: readonly TypeExpression[] };

const TOKEN = /\s*(\(|\)|\[\]|\||[A-Za-z_][A-Za-z0-9_-]*)/y;

function tokenize(source: string): string[] {
  const tokens: string[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < source.length) {
    if (/^\s*$/.test(source.slice(TOKEN.lastIndex))) break;
    const match = TOKEN.exec(source);
    if (match === null) throw new Error(`Unsupported type expression ${JSON.stringify(source)} at ${TOKEN.lastIndex}`);
    tokens.push(match[1] as string);
  }
  return tokens;
}

class Parser {
  private position = 0;
  constructor(
    private readonly source: string,
    private readonly tokens: readonly string[],
  ) {}

  parse(): TypeExpression {
    const expression = this.union();
    if (this.position !== this.tokens.length) this.fail();
    return expression;
  }

  private union(): TypeExpression {
    const members = [this.postfix()];
    while (this.tokens[this.position] === '|') {
      this.position += 1;
      members.push(this.postfix());
    }
    return members.length === 1 ? (members[0] as TypeExpression) : { kind: 'union', members };
  }

  private postfix(): TypeExpression {
    let expression = this.primary();
    while (this.tokens[this.position] === '[]') {
      this.position += 1;
      expression = { kind: 'array', items: expression };
    }
    return expression;
  }

  private primary(): TypeExpression {
    const token = this.tokens[this.position];
    this.position += 1;
    if (token === '(') {
      const inner = this.union();
      if (this.tokens[this.position] !== ')') this.fail();
      this.position += 1;
      return inner;
    }
    if (token === undefined || !/^[A-Za-z_]/.test(token)) this.fail();
    return { kind: 'name', name: token as string };
  }

  private fail(): never {
    throw new Error(`Unsupported type expression ${JSON.stringify(this.source)}`);
  }
}

const parsed = new Map<string, TypeExpression>();

/** Parses (and remembers) a type expression; throws on anything outside the grammar above. */
export function parseTypeExpression(source: string): TypeExpression {
  let expression = parsed.get(source);
  if (expression === undefined) {
    expression = new Parser(source, tokenize(source)).parse();
    parsed.set(source, expression);
  }
  return expression;
}

/** Every type name an expression mentions (built-ins included). */
export function namesIn(expression: TypeExpression): string[] {
  switch (expression.kind) {
    case 'name':
      return [expression.name];
    case 'array':
      return namesIn(expression.items);
    case 'union':
      return expression.members.flatMap(namesIn);
  }
}

/** The expression written back in the reference's notation (`(A | B)[]`). */
export function formatTypeExpression(expression: TypeExpression): string {
  switch (expression.kind) {
    case 'name':
      return expression.name;
    case 'array':
      return expression.items.kind === 'union' ? `(${formatTypeExpression(expression.items)})[]` : `${formatTypeExpression(expression.items)}[]`;
    case 'union':
      return expression.members.map(formatTypeExpression).join(' | ');
  }
}
