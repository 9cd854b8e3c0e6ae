/**
 * docker-compose.yml, validated without Docker (what `docker compose config` would catch, and
 * more): the services and profiles the stack needs, pinned images, healthchecks that dependents
 * can wait on, bind mounts of files that exist, and — by running the real configuration code on
 * each Herald service's environment — variables the gateway and the workers accept.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { parseWorkerConfig, WORKER_VARIABLES } from '@herald/delivery';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { VARIABLES } from '../../src/config/variables.js';
import { dockerfileStages } from './support/dockerfile.js';
import { interpolate, isRecord, readJson, readYaml, repoPath } from './support/repository.js';

/** An image tag that names a release: at least `major.minor` (or SQL Server's `2022-CU14`), and a suffix. */
const PINNED_TAG = /^(v?\d+\.\d+(\.\d+)?|\d{4}-CU\d+)([-.][A-Za-z0-9.-]+)?$/;

interface Service {
  image?: string;
  build?: { context?: string; dockerfile?: string; target?: string };
  command?: string[] | string;
  environment?: Record<string, unknown> | string[];
  ports?: string[];
  volumes?: string[];
  depends_on?: Record<string, { condition?: string }> | string[];
  healthcheck?: { test?: string[] | string; disable?: boolean };
  profiles?: string[];
}

const compose = readYaml('docker-compose.yml') as { services?: Record<string, Service>; volumes?: Record<string, unknown> };
const services = compose.services ?? {};
const names = Object.keys(services).sort();
const service = (name: string): Service => {
  const found = services[name];
  if (found === undefined) throw new Error(`docker-compose.yml has no service "${name}"`);
  return found;
};

/** Services that run no healthcheck, and why (each is waited for another way). */
const WITHOUT_HEALTHCHECK: Readonly<Record<string, string>> = {
  servicebus: 'the emulator image has no HTTP client; the demo waits for GET :5300/health',
  demo: 'a one-shot job',
};
const DEMO_SERVICES = ['consumer-service', 'demo'];

/** A service's environment after Compose interpolation with no variables set on the host (the defaults). */
function environmentOf(name: string): Record<string, string> {
  const environment = service(name).environment ?? {};
  const entries = Array.isArray(environment)
    ? environment.map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)] as const)
    : Object.entries(environment);
  return Object.fromEntries(entries.map(([key, value]) => [key, interpolate(String(value))]));
}

const commandOf = (name: string): string[] => {
  const command = service(name).command;
  return typeof command === 'string' ? command.split(/\s+/) : (command ?? []);
};
const gateways = names.filter((name) => commandOf(name).join(' ') === 'herald serve');
const workers = names.filter((name) => commandOf(name).join(' ') === 'herald-delivery');
const dependencies = (name: string): Record<string, { condition?: string }> => {
  const dependsOn = service(name).depends_on ?? {};
  return Array.isArray(dependsOn) ? Object.fromEntries(dependsOn.map((target) => [target, { condition: 'service_started' }])) : dependsOn;
};
const hasHealthcheck = (name: string): boolean => {
  const healthcheck = service(name).healthcheck;
  return healthcheck !== undefined && healthcheck.disable !== true && healthcheck.test !== undefined;
};

/** Variables Herald's services get that its configuration does not read (the SDKs do). */
const READ_BY_SDKS = new Set(['METADATA_SERVER_DETECTION', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY']);

describe('docker-compose.yml', () => {
  it('has the stack: databases, the gateway, two workers, the emulators, Prometheus, Grafana and the demo', () => {
    expect(names).toEqual(
      [
        'postgres',
        'redis',
        'gateway',
        'delivery-1',
        'delivery-2',
        'localstack',
        'mssql',
        'servicebus',
        'pubsub',
        'prometheus',
        'grafana',
        'consumer-service',
        'demo',
      ].sort(),
    );
    expect(gateways).toEqual(['gateway']);
    expect(workers).toEqual(['delivery-1', 'delivery-2']);
  });

  it('puts the example service and the demo in the "demo" profile, and nothing else', () => {
    for (const name of names) expect(service(name).profiles, name).toEqual(DEMO_SERVICES.includes(name) ? ['demo'] : undefined);
  });

  it('pins the Node image of the Dockerfile to an exact current LTS release', () => {
    expect(/^ARG NODE_IMAGE=node:(\S+)$/m.exec(readFileSync(repoPath('Dockerfile'), 'utf8'))?.[1]).toMatch(/^24\.\d+\.\d+-bookworm-slim$/);
  });

  it('uses pinned images, and builds Herald from ./Dockerfile stages that exist', () => {
    const stageNames = dockerfileStages().map((stage) => stage.name);
    for (const name of names) {
      const { image, build } = service(name);
      expect(typeof image, `${name}: image`).toBe('string');
      if (build !== undefined) {
        expect(build.context, name).toBe('.');
        expect(build.dockerfile, name).toBe('Dockerfile');
        expect(stageNames, `${name}: build target`).toContain(build.target);
        expect(image, name).toMatch(/^herald(-examples)?:local$/);
      } else {
        const tag = /:([^/:]+)$/.exec(image ?? '')?.[1];
        expect(tag, `${name}: ${image} must name a tag`).toBeDefined();
        // Pinned: a version with at least major.minor (`15-alpine`, `2022-latest` and
        // `emulators` float to whatever is pushed next).
        expect(tag, `${name}: ${image} must pin a version`).toMatch(PINNED_TAG);
      }
    }
  });

  it('gives every long-running service a healthcheck', () => {
    for (const name of names) {
      if (WITHOUT_HEALTHCHECK[name] !== undefined) continue;
      expect(hasHealthcheck(name), `${name} has no healthcheck`).toBe(true);
      const test = service(name).healthcheck?.test;
      expect(Array.isArray(test) && (test[0] === 'CMD' || test[0] === 'CMD-SHELL'), `${name}: healthcheck test form`).toBe(true);
    }
    expect(service('demo').healthcheck).toEqual({ disable: true });
    // Herald's healthcheck is the image's script.
    for (const name of [...gateways, ...workers, 'consumer-service']) {
      expect(service(name).healthcheck?.test, name).toEqual(['CMD', 'node', '/app/deploy/docker/healthcheck.mjs']);
    }
    expect(existsSync(repoPath('deploy/docker/healthcheck.mjs'))).toBe(true);
  });

  it('depends only on services that exist, waits for health only where there is a healthcheck', () => {
    for (const name of names) {
      for (const [target, { condition }] of Object.entries(dependencies(name))) {
        expect(names, `${name} depends on ${target}`).toContain(target);
        expect(['service_started', 'service_healthy', 'service_completed_successfully'], `${name} → ${target}`).toContain(condition);
        if (condition === 'service_healthy') expect(hasHealthcheck(target), `${name} waits for ${target} to be healthy`).toBe(true);
        // A service of the default profile cannot wait for one that only the demo profile starts.
        if (!DEMO_SERVICES.includes(name)) expect(DEMO_SERVICES, `${name} → ${target}`).not.toContain(target);
      }
    }
    for (const name of [...gateways, ...workers]) expect(dependencies(name).postgres?.condition, name).toBe('service_healthy');
  });

  it('mounts files and directories that exist, and declares the named volumes it uses', () => {
    const declared = Object.keys(compose.volumes ?? {});
    const used = new Set<string>();
    for (const name of names) {
      for (const volume of service(name).volumes ?? []) {
        const [source = ''] = volume.split(':');
        if (source.startsWith('./')) {
          expect(existsSync(repoPath(source)), `${name}: ${source} does not exist`).toBe(true);
        } else {
          expect(declared, `${name}: named volume ${source}`).toContain(source);
          used.add(source);
        }
      }
    }
    expect([...used].sort()).toEqual([...declared].sort());
  });

  it('publishes host ports on 127.0.0.1 only, each once', () => {
    const published: string[] = [];
    for (const name of names) {
      for (const port of service(name).ports ?? []) {
        expect(port, `${name}: ${port}`).toMatch(/^127\.0\.0\.1:\d+:\d+$/);
        published.push(port.split(':')[1] as string);
      }
    }
    expect(new Set(published).size).toBe(published.length);
  });
});

describe('the environment of the Herald services', () => {
  const gatewayNames = new Set(VARIABLES.map((variable) => variable.name));
  const workerNames = new Set(WORKER_VARIABLES.map((variable) => variable.name));

  it.each(gateways)('%s: every variable is one `herald serve` reads, and its configuration loads', (name) => {
    const env = environmentOf(name);
    expect(Object.keys(env).filter((key) => !gatewayNames.has(key) && !READ_BY_SDKS.has(key))).toEqual([]);
    const config = loadConfig(env);
    expect(config.host).toBe('0.0.0.0');
    expect(config.deliveryMode).toBe('off');
    expect(config.databaseUrl).toMatch(/^postgres:\/\/.+@postgres:5432\//);
    expect(config.oauth.bootstrapClient).toBeDefined();
    // Endpoint overrides by the option each destination's descriptor declares (35806f9).
    expect(config.delivery.destinations).toMatchObject({
      endpoints: { sqs: 'http://localstack:4566', sns: 'http://localstack:4566', eventBridge: 'http://localstack:4566', pubsub: 'pubsub:8085' },
      allowInsecureConnections: true,
    });
  });

  it.each(workers)('%s: every variable is one `herald-delivery` reads, and its configuration loads', (name) => {
    const env = environmentOf(name);
    expect(Object.keys(env).filter((key) => !workerNames.has(key) && !READ_BY_SDKS.has(key))).toEqual([]);
    const config = parseWorkerConfig(env);
    expect(config.port).toBe(9464);
    expect(config.databaseUrl).toBe(environmentOf('gateway').DATABASE_URL);
    expect(config.listen).toBe(true);
  });

  it('shares one secret key between the gateway (which seals) and the workers (which open)', () => {
    const keys = new Set([...gateways, ...workers].map((name) => environmentOf(name).HERALD_SECRET_KEY));
    expect(keys.size).toBe(1);
    expect([...keys][0]?.length).toBeGreaterThanOrEqual(16);
  });
});

describe('the demo profile', () => {
  it('creates the project the gateway serves, as its bootstrap client, with the CLI', () => {
    const gateway = loadConfig(environmentOf('gateway'));
    const demo = environmentOf('demo');
    expect(gateway.projects).toContain(demo.DEMO_PROJECT);
    expect(demo.DEMO_BOOTSTRAP_CLIENT).toBe(environmentOf('gateway').HERALD_BOOTSTRAP_CLIENT);
    expect(commandOf('demo').join(' ')).toContain(`herald projects create ${demo.DEMO_PROJECT} && node deploy/demo/dist/run-demo.js`);
    // `herald projects create` reads the same configuration as `herald serve`.
    expect(() => loadConfig(demo)).not.toThrow();
    expect(existsSync(repoPath('deploy/demo/run-demo.ts'))).toBe(true);
  });

  it('points the example service at the queue the demo creates, and the demo at its metrics', () => {
    const consumer = environmentOf('consumer-service');
    const demo = environmentOf('demo');
    expect(consumer.QUEUE_URL).toBe(`${demo.DEMO_SQS_ENDPOINT}/000000000000/${demo.DEMO_SQS_QUEUE}`);
    expect(consumer.SQS_ENDPOINT).toBe(demo.DEMO_SQS_ENDPOINT);
    expect(demo.DEMO_CONSUMER_METRICS_URL).toBe(`http://consumer-service:${consumer.PORT}/metrics`);
    expect(consumer.REDIS_URL).toBe('redis://redis:6379');
  });

  it('delivers to a Service Bus queue declared in deploy/servicebus/Config.json', () => {
    const mount = service('servicebus').volumes?.find((volume) => volume.includes('Config.json'));
    expect(mount).toBe('./deploy/servicebus/Config.json:/ServiceBus_Emulator/ConfigFiles/Config.json:ro');
    const config = readJson('deploy/servicebus/Config.json') as {
      UserConfig: { Namespaces: { Queues: { Name: string }[] }[] };
    };
    const queues = config.UserConfig.Namespaces.flatMap((namespace) => namespace.Queues.map((queue) => queue.Name));
    const entityPath = /EntityPath=([^;]+)/.exec(environmentOf('demo').DEMO_SERVICEBUS_CONNECTION_STRING ?? '')?.[1];
    expect(queues).toContain(entityPath);
    expect(environmentOf('servicebus').SQL_SERVER).toBe('mssql');
    expect(environmentOf('servicebus').MSSQL_SA_PASSWORD).toBe(environmentOf('mssql').MSSQL_SA_PASSWORD);
  });
});

describe('Prometheus and Grafana in the stack', () => {
  const prometheus = readYaml('deploy/prometheus/prometheus.yml') as {
    scrape_configs: { job_name: string; static_configs: { targets: string[] }[] }[];
  };
  const targets = prometheus.scrape_configs.flatMap((job) =>
    job.static_configs.flatMap((config) => config.targets.map((target) => ({ job: job.job_name, target }))),
  );

  it('scrapes the gateway, every worker and the example service on the ports they listen on', () => {
    const expectedPort = (name: string): string => {
      const env = environmentOf(name);
      return env.PORT ?? '';
    };
    for (const { target } of targets) {
      const [host = '', port] = target.split(':');
      expect(names, target).toContain(host);
      expect(port, target).toBe(expectedPort(host));
    }
    const scraped = targets.map(({ target }) => target.split(':')[0]);
    for (const name of [...gateways, ...workers, 'consumer-service']) expect(scraped, name).toContain(name);
    expect(targets.filter(({ job }) => job === 'herald-delivery').map(({ target }) => target.split(':')[0])).toEqual(workers);
  });

  it('mounts the Prometheus configuration and the alert rules where prometheus.yml expects them', () => {
    expect(service('prometheus').volumes).toEqual(
      expect.arrayContaining([
        './deploy/prometheus/prometheus.yml:/etc/prometheus/prometheus.yml:ro',
        './deploy/prometheus/alerts.yml:/etc/prometheus/alerts.yml:ro',
      ]),
    );
  });

  it('provisions the Prometheus data source and the dashboards directory Grafana mounts', () => {
    const volumes = service('grafana').volumes ?? [];
    expect(volumes).toContain('./deploy/grafana/provisioning:/etc/grafana/provisioning:ro');
    const dashboardsMount = volumes.find((volume) => volume.startsWith('./deploy/grafana/dashboards:'))?.split(':')[1];
    const provider = readYaml('deploy/grafana/provisioning/dashboards/herald.yml') as { providers: { options: { path: string } }[] };
    expect(provider.providers[0]?.options.path).toBe(dashboardsMount);
    const home = environmentOf('grafana').GF_DASHBOARDS_DEFAULT_HOME_DASHBOARD_PATH ?? '';
    expect(home.startsWith(`${dashboardsMount}/`)).toBe(true);
    expect(statSync(repoPath('deploy/grafana/dashboards', home.slice(`${dashboardsMount}/`.length))).isFile()).toBe(true);
    const datasources = readYaml('deploy/grafana/provisioning/datasources/prometheus.yml') as { datasources: { type: string; url: string }[] };
    expect(datasources.datasources).toEqual([expect.objectContaining({ type: 'prometheus', url: 'http://prometheus:9090' })]);
  });
});

describe('the interpolation these checks rely on', () => {
  it('resolves defaults, host values and $$ like Compose', () => {
    expect(interpolate('${A:-x}')).toBe('x');
    expect(interpolate('${A:-x}', { A: 'y' })).toBe('y');
    expect(interpolate('${A:-x}', { A: '' })).toBe('x');
    expect(interpolate('${A-x}', { A: '' })).toBe('');
    expect(interpolate('pass $${SECRET}')).toBe('pass ${SECRET}');
    expect(() => interpolate('${A}')).toThrow();
    expect(isRecord(compose)).toBe(true);
  });
});
