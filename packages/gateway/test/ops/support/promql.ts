/**
 * Just enough PromQL analysis to check dashboards and alert rules against the metrics the code
 * registers: which metric names an expression selects (with the labels its matchers use), which
 * labels it groups by, and which functions it calls. Not a parser: it relies on the expressions
 * being well-formed, which Prometheus and Grafana check themselves.
 */

/** Functions and aggregation operators of PromQL (3.x) that the checks accept; anything else is a typo. */
export const PROMQL_FUNCTIONS: ReadonlySet<string> = new Set([
  // aggregation operators
  'sum',
  'min',
  'max',
  'avg',
  'group',
  'stddev',
  'stdvar',
  'count',
  'count_values',
  'bottomk',
  'topk',
  'quantile',
  'limitk',
  'limit_ratio',
  // functions
  'abs',
  'absent',
  'absent_over_time',
  'ceil',
  'changes',
  'clamp',
  'clamp_max',
  'clamp_min',
  'day_of_month',
  'day_of_week',
  'day_of_year',
  'days_in_month',
  'delta',
  'deriv',
  'exp',
  'floor',
  'histogram_avg',
  'histogram_count',
  'histogram_sum',
  'histogram_fraction',
  'histogram_quantile',
  'histogram_stddev',
  'histogram_stdvar',
  'hour',
  'idelta',
  'increase',
  'irate',
  'label_join',
  'label_replace',
  'ln',
  'log2',
  'log10',
  'minute',
  'month',
  'predict_linear',
  'rate',
  'resets',
  'round',
  'scalar',
  'sgn',
  'sort',
  'sort_desc',
  'sort_by_label',
  'sort_by_label_desc',
  'sqrt',
  'time',
  'timestamp',
  'vector',
  'year',
  'avg_over_time',
  'min_over_time',
  'max_over_time',
  'sum_over_time',
  'count_over_time',
  'quantile_over_time',
  'stddev_over_time',
  'stdvar_over_time',
  'last_over_time',
  'present_over_time',
]);

/** Grafana's templating functions (variable queries), not PromQL. */
export const GRAFANA_VARIABLE_FUNCTIONS: ReadonlySet<string> = new Set(['label_values', 'label_names', 'metrics', 'query_result']);

const KEYWORDS: ReadonlySet<string> = new Set([
  'and',
  'or',
  'unless',
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'bool',
  'offset',
  'inf',
  'nan',
  'atan2',
]);

export interface Selector {
  /** The metric name, as written (`…_bucket` included). */
  name: string;
  /** Label names of its matchers (`{status="…", project=~"$project"}` → status, project). */
  labels: string[];
}

export interface ExpressionInfo {
  selectors: Selector[];
  /** Labels of every `by (…)`, `without (…)`, `on (…)`, `ignoring (…)`, `group_left/right (…)`. */
  groupingLabels: string[];
  /** Whether any aggregation has a `by (…)` clause (then only those labels survive it). */
  hasBy: boolean;
  /** Function and aggregation names called. */
  functions: string[];
}

/** Replaces string literals with empty ones (their contents may hold anything, `$vars` included). */
function withoutStrings(expression: string): string {
  return expression.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`/g, '""');
}

export function analyse(expression: string): ExpressionInfo {
  let text = withoutStrings(expression);
  const selectors: Selector[] = [];
  const matcherLabels = (body: string): string[] => [...body.matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)\s*(?:=~|!~|!=|=)/g)].map((match) => match[1] as string);

  // `name{…}` selectors, then bare `{…}` (a name-less selector never occurs in our files).
  text = text.replace(/([a-zA-Z_:][a-zA-Z0-9_:]*)?\s*\{([^}]*)\}/g, (_all, name: string | undefined, body: string) => {
    if (name !== undefined && !KEYWORDS.has(name)) {
      selectors.push({ name, labels: matcherLabels(body) });
      return ' ';
    }
    return name === undefined ? ' ' : `${name} `;
  });
  // Ranges and subqueries: `[5m]`, `[$__rate_interval]`, `[1h:5m]`.
  text = text.replace(/\[[^\]]*\]/g, ' ');

  const groupingLabels: string[] = [];
  let hasBy = false;
  text = text.replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\(([^)]*)\)/g, (_all, keyword: string, list: string) => {
    if (keyword === 'by') hasBy = true;
    groupingLabels.push(
      ...list
        .split(',')
        .map((label) => label.trim())
        .filter((label) => label !== ''),
    );
    return ' ';
  });
  // Grafana variables outside strings (`$__range` is already gone with the ranges).
  text = text.replace(/\$\{?[a-zA-Z_][a-zA-Z0-9_]*\}?/g, ' ');

  const functions: string[] = [];
  const tokens = /(\d+(?:\.\d+)?(?:e[+-]?\d+)?(?:ms|s|m|h|d|w|y)?)|([a-zA-Z_:][a-zA-Z0-9_:]*)(\s*\()?/g;
  for (const match of text.matchAll(tokens)) {
    const identifier = match[2];
    if (identifier === undefined) continue; // a number or a duration
    if (KEYWORDS.has(identifier)) continue; // `and (…)`, `or (…)`: operators, not calls
    if (match[3] !== undefined) functions.push(identifier);
    else selectors.push({ name: identifier, labels: [] });
  }
  return { selectors, groupingLabels, hasBy, functions };
}

/** Labels a legend format or an annotation template refers to: `{{status}}`, `{{ $labels.project }}`. */
export function templateLabels(template: string): string[] {
  return [...template.matchAll(/\{\{\s*(?:\$labels\.)?([a-zA-Z_][a-zA-Z0-9_]*)\s*\}\}/g)].map((match) => match[1] as string);
}
