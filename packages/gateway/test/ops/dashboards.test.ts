/**
 * The Grafana dashboards (deploy/grafana/dashboards/*.json) and the Prometheus alert rules
 * (deploy/prometheus/alerts.yml) only query what the code registers: every metric name (histogram
 * series through their `_bucket`/`_sum`/`_count`), every label in a matcher, a grouping, a legend
 * or an annotation, every function. A renamed metric or label fails here instead of leaving an
 * empty panel or an alert that can never fire.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { metricCatalogue, PROMETHEUS_SERIES, TARGET_LABELS, type MetricCatalogue } from './support/metric-catalogue.js';
import { analyse, GRAFANA_VARIABLE_FUNCTIONS, PROMQL_FUNCTIONS, templateLabels } from './support/promql.js';
import { headingAnchors, isRecord, listFiles, readJson, readRepoFile, readYaml } from './support/repository.js';

let catalogue: MetricCatalogue;

beforeAll(async () => {
  catalogue = await metricCatalogue();
});

/** Problems of one PromQL expression against the registered metrics (empty when it is sound). */
function problemsOf(expression: string, legend?: string): string[] {
  const problems: string[] = [];
  const info = analyse(expression);
  const available = new Set<string>(TARGET_LABELS);
  if (info.selectors.length === 0) problems.push('selects no metric');
  for (const selector of info.selectors) {
    const prometheusLabels = PROMETHEUS_SERIES.get(selector.name);
    let labels: readonly string[];
    if (prometheusLabels !== undefined) {
      labels = prometheusLabels;
    } else {
      const resolved = catalogue.resolve(selector.name);
      if (resolved === undefined) {
        problems.push(`${selector.name} is not registered by the code`);
        continue;
      }
      if (resolved.metric.type === 'histogram' && resolved.suffix === '') {
        problems.push(`${selector.name} is a histogram: select ${selector.name}_bucket, _sum or _count`);
      }
      labels = resolved.suffix === '_bucket' ? [...resolved.metric.labels, 'le'] : resolved.metric.labels;
    }
    for (const label of labels) available.add(label);
    for (const label of selector.labels) {
      if (!labels.includes(label) && !TARGET_LABELS.includes(label)) problems.push(`${selector.name} has no label "${label}"`);
    }
  }
  for (const label of info.groupingLabels) {
    if (!available.has(label)) problems.push(`groups by "${label}", which none of its metrics has`);
  }
  for (const name of info.functions) {
    if (!PROMQL_FUNCTIONS.has(name)) problems.push(`calls ${name}(), not a PromQL function`);
  }
  if (info.functions.includes('histogram_quantile')) {
    if (!info.selectors.some((selector) => selector.name.endsWith('_bucket'))) problems.push('histogram_quantile() without a _bucket series');
    if (!info.groupingLabels.includes('le')) problems.push('histogram_quantile() over an aggregation that drops "le"');
  }
  if (legend !== undefined) {
    // After `by (…)` only those labels are left (histogram_quantile consumes `le`).
    const shown = info.hasBy ? new Set(info.groupingLabels.filter((label) => label !== 'le')) : available;
    for (const label of templateLabels(legend)) {
      if (!shown.has(label)) problems.push(`legend shows {{${label}}}, which the result does not carry`);
    }
  }
  return problems;
}

describe('the PromQL checks themselves', () => {
  it('find metric names, matcher labels, groupings and functions', () => {
    const info = analyse(
      'histogram_quantile(0.99, sum by (le, destination_type) (rate(herald_delivery_latency_seconds_bucket{destination_type=~"$t", x="a{b}"}[$__rate_interval]))) > 1e3',
    );
    expect(info.selectors).toEqual([{ name: 'herald_delivery_latency_seconds_bucket', labels: ['destination_type', 'x'] }]);
    expect(info.groupingLabels).toEqual(['le', 'destination_type']);
    expect(info.functions).toEqual(['histogram_quantile', 'sum', 'rate']);
    expect(analyse('a unless b offset 10m or c and on (x) d').selectors.map((selector) => selector.name)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('report unknown metrics, labels, functions and legends', () => {
    expect(problemsOf('sum(rate(herald_no_such_metric_total[5m]))')).toEqual(['herald_no_such_metric_total is not registered by the code']);
    expect(problemsOf('sum by (colour) (rate(herald_deliveries_total{flavour="x"}[5m]))')).toEqual([
      'herald_deliveries_total has no label "flavour"',
      'groups by "colour", which none of its metrics has',
    ]);
    expect(problemsOf('rates(herald_deliveries_total[5m])')).toEqual(['calls rates(), not a PromQL function']);
    expect(problemsOf('herald_delivery_latency_seconds')).toEqual([
      'herald_delivery_latency_seconds is a histogram: select herald_delivery_latency_seconds_bucket, _sum or _count',
    ]);
    expect(problemsOf('sum by (reason) (rate(herald_deliveries_dropped_total[5m]))', '{{destination_type}}')).toEqual([
      'legend shows {{destination_type}}, which the result does not carry',
    ]);
    expect(problemsOf('histogram_quantile(0.5, sum(rate(herald_delivery_latency_seconds_bucket[5m])))')).toEqual([
      'histogram_quantile() over an aggregation that drops "le"',
    ]);
    expect(problemsOf('up{job="herald-delivery"} == 0')).toEqual([]);
  });
});

describe('the metric names the code exports', () => {
  it('are exactly the metrics the code registers', () => {
    const byOwner = (owner: string) =>
      [...catalogue.metrics.values()]
        .filter((metric) => metric.owner === owner)
        .map((metric) => metric.name)
        .sort();
    expect(byOwner('delivery')).toEqual([...catalogue.exportedNames.delivery].sort());
    expect(byOwner('consumer')).toEqual([...catalogue.exportedNames.consumer].sort());
    expect(byOwner('http')).toEqual(['herald_http_request_duration_seconds']);
    expect(byOwner('process')).toEqual([...catalogue.exportedNames.process].sort());
    // prom-client's default process metrics (event loop lag, heap, GC) come with every process.
    expect(byOwner('runtime')).toEqual(
      expect.arrayContaining(['nodejs_eventloop_lag_p99_seconds', 'nodejs_gc_duration_seconds', 'nodejs_heap_size_used_bytes']),
    );
  });
});

// ---- Grafana dashboards ------------------------------------------------------------------------

interface Target {
  refId?: unknown;
  expr?: unknown;
  legendFormat?: unknown;
  datasource?: unknown;
}

interface Panel {
  id?: unknown;
  type?: unknown;
  title?: unknown;
  gridPos?: { x?: unknown; y?: unknown; w?: unknown; h?: unknown };
  datasource?: unknown;
  targets?: Target[];
  panels?: Panel[];
}

const DASHBOARD_FILES = listFiles('deploy/grafana/dashboards', '.json');
const PANEL_TYPES = new Set(['row', 'timeseries', 'stat', 'state-timeline', 'bargauge', 'gauge', 'table', 'text', 'heatmap', 'barchart']);
const DATASOURCE = { type: 'prometheus', uid: '${datasource}' };

function panelsOf(dashboard: { panels?: Panel[] }): Panel[] {
  const panels: Panel[] = [];
  for (const panel of dashboard.panels ?? []) panels.push(panel, ...(panel.panels ?? []));
  return panels;
}

function dashboard(file: string): Record<string, unknown> & { panels?: Panel[] } {
  const parsed = readJson('deploy/grafana/dashboards', file);
  if (!isRecord(parsed)) throw new Error(`${file} is not a JSON object`);
  return parsed;
}

describe('Grafana dashboards', () => {
  it('exist: delivery, consumer and HTTP', () => {
    expect(DASHBOARD_FILES).toEqual(['herald-consumer.json', 'herald-delivery.json', 'herald-http.json']);
  });

  it('have unique uids and titles, a schema version and the data source variable', () => {
    const uids = new Set<unknown>();
    for (const file of DASHBOARD_FILES) {
      const board = dashboard(file);
      expect(typeof board.uid === 'string' && board.uid.length <= 40, `${file}: uid`).toBe(true);
      expect(uids.has(board.uid), `${file}: uid ${String(board.uid)} is used twice`).toBe(false);
      uids.add(board.uid);
      expect(board.uid, `${file}: file name = uid`).toBe(file.replace(/\.json$/, ''));
      expect(typeof board.title === 'string' && board.title.startsWith('Herald'), `${file}: title`).toBe(true);
      expect(typeof board.schemaVersion, `${file}: schemaVersion`).toBe('number');
      const variables = (isRecord(board.templating) ? board.templating.list : undefined) as Record<string, unknown>[] | undefined;
      expect(
        variables?.find((variable) => variable.name === 'datasource'),
        `${file}: datasource variable`,
      ).toMatchObject({
        type: 'datasource',
        query: 'prometheus',
      });
    }
  });

  it.each(DASHBOARD_FILES)('%s: panels are well-formed and query the data source variable', (file) => {
    const panels = panelsOf(dashboard(file));
    expect(panels.length).toBeGreaterThan(0);
    const ids = new Set<unknown>();
    for (const panel of panels) {
      const where = `${file} panel "${String(panel.title)}"`;
      expect(typeof panel.id, `${where}: id`).toBe('number');
      expect(ids.has(panel.id), `${where}: id ${String(panel.id)} is used twice`).toBe(false);
      ids.add(panel.id);
      expect(PANEL_TYPES.has(String(panel.type)), `${where}: type ${String(panel.type)}`).toBe(true);
      expect(typeof panel.title === 'string' && panel.title !== '', `${where}: title`).toBe(true);
      const { x, y, w, h } = panel.gridPos ?? {};
      expect(
        [x, y, w, h].every((n) => typeof n === 'number'),
        `${where}: gridPos`,
      ).toBe(true);
      expect((x as number) + (w as number), `${where}: wider than the grid`).toBeLessThanOrEqual(24);
      if (panel.type === 'row' || panel.type === 'text') continue;
      expect(panel.datasource, `${where}: datasource`).toEqual(DATASOURCE);
      expect(panel.targets?.length, `${where}: targets`).toBeGreaterThan(0);
      const refIds = (panel.targets ?? []).map((target) => target.refId);
      expect(new Set(refIds).size, `${where}: refIds`).toBe(refIds.length);
      for (const target of panel.targets ?? []) {
        expect(typeof target.expr === 'string' && target.expr.trim() !== '', `${where}: expr`).toBe(true);
        expect(target.datasource, `${where} ${String(target.refId)}: datasource`).toEqual(DATASOURCE);
      }
    }
  });

  it.each(DASHBOARD_FILES)('%s: every query uses registered metrics, labels and functions', (file) => {
    const problems: string[] = [];
    for (const panel of panelsOf(dashboard(file))) {
      for (const target of panel.targets ?? []) {
        const legend = typeof target.legendFormat === 'string' ? target.legendFormat : undefined;
        for (const problem of problemsOf(String(target.expr), legend)) problems.push(`"${String(panel.title)}" ${String(target.refId)}: ${problem}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it.each(DASHBOARD_FILES)('%s: variable queries use registered metrics and labels', (file) => {
    const board = dashboard(file);
    const variables = ((isRecord(board.templating) ? board.templating.list : []) as Record<string, unknown>[]).filter((variable) => variable.type === 'query');
    const problems: string[] = [];
    for (const variable of variables) {
      const definition = String(variable.definition);
      const query = isRecord(variable.query) ? String(variable.query.query) : String(variable.query);
      expect(query, `${file} $${String(variable.name)}: definition = query`).toBe(definition);
      expect(variable.datasource, `${file} $${String(variable.name)}: datasource`).toEqual(DATASOURCE);
      const match = /^(\w+)\((.*),\s*(\w+)\)$/.exec(query);
      if (match === null || !GRAFANA_VARIABLE_FUNCTIONS.has(match[1] as string)) {
        problems.push(`$${String(variable.name)}: "${query}" is not label_values(selector, label)`);
        continue;
      }
      const [, , selector, label] = match as unknown as [string, string, string, string];
      problems.push(...problemsOf(selector).map((problem) => `$${String(variable.name)}: ${problem}`));
      const metric = catalogue.resolve(analyse(selector).selectors[0]?.name ?? '')?.metric;
      if (metric !== undefined && !metric.labels.includes(label) && !TARGET_LABELS.includes(label)) {
        problems.push(`$${String(variable.name)}: ${metric.name} has no label "${label}"`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("together show every metric Herald registers (prom-client's default metrics: a few)", () => {
    const shown = new Set<string>();
    for (const file of DASHBOARD_FILES) {
      for (const panel of panelsOf(dashboard(file))) {
        for (const target of panel.targets ?? []) {
          for (const selector of analyse(String(target.expr)).selectors) {
            const resolved = catalogue.resolve(selector.name);
            if (resolved !== undefined) shown.add(resolved.metric.name);
          }
        }
      }
    }
    const herald = [...catalogue.metrics.values()].filter((metric) => metric.owner !== 'runtime').map((metric) => metric.name);
    expect(herald.filter((name) => !shown.has(name))).toEqual([]);
  });
});

// ---- Prometheus alert rules --------------------------------------------------------------------

interface Rule {
  alert?: unknown;
  record?: unknown;
  expr?: unknown;
  for?: unknown;
  labels?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
}

function ruleGroups(): { name?: unknown; rules?: Rule[] }[] {
  const parsed = readYaml('deploy/prometheus/alerts.yml');
  if (!isRecord(parsed) || !Array.isArray(parsed.groups)) throw new Error('alerts.yml: no groups');
  return parsed.groups as { name?: unknown; rules?: Rule[] }[];
}

const allRules = (): Rule[] => ruleGroups().flatMap((group) => group.rules ?? []);
const DURATION = /^(\d+(ms|s|m|h|d|w|y))+$/;
const SEVERITIES = new Set(['critical', 'warning', 'info']);
const RULE_FIELDS = new Set(['alert', 'expr', 'for', 'keep_firing_for', 'labels', 'annotations']);

describe('Prometheus alert rules', () => {
  it('parse into named groups of rules', () => {
    const groups = ruleGroups();
    expect(groups.length).toBeGreaterThan(0);
    const names = groups.map((group) => group.name);
    expect(names.every((name) => typeof name === 'string' && name !== '')).toBe(true);
    expect(new Set(names).size).toBe(names.length);
    for (const group of groups) expect(group.rules?.length, `group ${String(group.name)}`).toBeGreaterThan(0);
  });

  it('have the required fields: a unique alert name, expr, severity, summary, description and runbook', () => {
    const seen = new Set<unknown>();
    for (const rule of allRules()) {
      const where = `rule ${String(rule.alert ?? rule.record)}`;
      expect(typeof rule.alert === 'string' && /^Herald[A-Z][A-Za-z]+$/.test(rule.alert), `${where}: alert name`).toBe(true);
      expect(seen.has(rule.alert), `${where}: used twice`).toBe(false);
      seen.add(rule.alert);
      expect(typeof rule.expr === 'string' && rule.expr.trim() !== '', `${where}: expr`).toBe(true);
      if (rule.for !== undefined) expect(String(rule.for), `${where}: for`).toMatch(DURATION);
      expect(SEVERITIES.has(String(rule.labels?.severity)), `${where}: labels.severity`).toBe(true);
      for (const key of ['summary', 'description', 'runbook']) {
        expect(typeof rule.annotations?.[key] === 'string' && rule.annotations[key] !== '', `${where}: annotations.${key}`).toBe(true);
      }
      expect(
        Object.keys(rule).filter((key) => !RULE_FIELDS.has(key)),
        `${where}: fields Prometheus does not know`,
      ).toEqual([]);
    }
  });

  it('query registered metrics, labels and functions only', () => {
    const problems = allRules().flatMap((rule) => problemsOf(String(rule.expr)).map((problem) => `${String(rule.alert)}: ${problem}`));
    expect(problems).toEqual([]);
  });

  it('only template labels their expression keeps', () => {
    const problems: string[] = [];
    for (const rule of allRules()) {
      const info = analyse(String(rule.expr));
      const kept = new Set(
        info.hasBy
          ? info.groupingLabels
          : info.selectors.flatMap((selector) => [
              ...TARGET_LABELS,
              ...(PROMETHEUS_SERIES.get(selector.name) ?? catalogue.resolve(selector.name)?.metric.labels ?? []),
            ]),
      );
      for (const text of Object.values(rule.annotations ?? {})) {
        for (const label of templateLabels(String(text))) {
          if (!kept.has(label)) problems.push(`${String(rule.alert)}: {{ $labels.${label} }} is not a label of its result`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('cover a subscription in ConfigurationError, a growing backlog and drops', () => {
    const byName = new Map(allRules().map((rule) => [rule.alert, String(rule.expr)]));
    expect(byName.get('HeraldSubscriptionConfigurationError')).toMatch(/herald_subscription_health\{status="ConfigurationError"\}/);
    expect(byName.get('HeraldBacklogGrowing')).toMatch(/deriv\(herald_deliveries_pending\[/);
    expect(byName.get('HeraldDeliveriesDropped')).toMatch(/herald_deliveries_dropped_total/);
  });

  it('each link a section of docs/operations.md that explains the alert', () => {
    const operations = readRepoFile('docs', 'operations.md');
    const anchors = headingAnchors(operations);
    for (const rule of allRules()) {
      const runbook = String(rule.annotations?.runbook);
      const [path, anchor] = runbook.split('#');
      expect(path, `${String(rule.alert)}: runbook`).toBe('docs/operations.md');
      expect(anchors.has(anchor ?? ''), `${String(rule.alert)}: docs/operations.md has no heading #${String(anchor)}`).toBe(true);
      expect(anchor, `${String(rule.alert)}: the heading is the alert's name`).toBe(String(rule.alert).toLowerCase());
    }
  });

  it('are the file Prometheus loads (deploy/prometheus/prometheus.yml)', () => {
    const prometheus = readYaml('deploy/prometheus/prometheus.yml');
    expect(isRecord(prometheus) && prometheus.rule_files).toEqual(['/etc/prometheus/alerts.yml']);
  });
});

// ---- docs/operations.md "Metrics" --------------------------------------------------------------

describe('the metrics list of docs/operations.md', () => {
  it('names every registered metric with its type and labels, and nothing else', () => {
    const operations = readRepoFile('docs', 'operations.md');
    const section = operations.slice(operations.indexOf('\n## Metrics'));
    const documented = new Map<string, { type: string; labels: string[] }>();
    for (const match of section.matchAll(/^\| `(herald_[a-z_]+)` \| (\w+) \| ([^|]*) \|/gm)) {
      const labels = [...(match[3] as string).matchAll(/`([a-z_]+)`/g)].map((label) => label[1] as string);
      documented.set(match[1] as string, { type: match[2] as string, labels });
    }
    const registered = new Map(
      [...catalogue.metrics.values()]
        .filter((metric) => metric.owner !== 'runtime')
        .map((metric) => [metric.name, { type: metric.type, labels: [...metric.labels] }]),
    );
    expect(new Map([...documented].sort())).toEqual(new Map([...registered].sort()));
  });
});
