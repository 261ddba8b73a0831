import * as appsV1 from 'kubernetes-models/apps/v1';
import * as batchV1 from 'kubernetes-models/batch/v1';
import * as policyV1 from 'kubernetes-models/policy/v1';
import * as coreV1 from 'kubernetes-models/v1';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { type K8sObject, k8sDocuments, mdqCommands, readText } from './infra-files';

/*
 * The Kubernetes manifests an operator applies (infra/k8s) and the compose file: valid against the
 * Kubernetes schemas (kubernetes-models), and holding what a clean production run needs — a real mdq
 * command per container, the image's non-root user, a read-only root filesystem with writable
 * volumes where mdq writes, memory requests and limits, grace periods, the API's drain and budget.
 */

interface Model {
  validate(): void;
}
type ModelClass = new (data: unknown) => Model;

/** The API groups the manifests use; a manifest of another group fails until it is added here. */
const MODELS: Record<string, Record<string, unknown>> = {
  v1: coreV1,
  'apps/v1': appsV1,
  'batch/v1': batchV1,
  'policy/v1': policyV1,
};

function modelOf(apiVersion: string, kind: string): ModelClass {
  const model = MODELS[apiVersion]?.[kind];
  if (typeof model !== 'function') throw new Error(`no Kubernetes schema for ${apiVersion} ${kind}`);
  return model as ModelClass;
}

interface Container {
  name: string;
  image: string;
  args: string[];
  envFrom?: { secretRef?: { name: string }; configMapRef?: { name: string } }[];
  ports?: { name?: string; containerPort: number }[];
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: {
    readOnlyRootFilesystem?: boolean;
    allowPrivilegeEscalation?: boolean;
    capabilities?: { drop?: string[] };
  };
  volumeMounts?: { name: string; mountPath: string }[];
  lifecycle?: { preStop?: { exec?: { command: string[] } } };
}
interface PodSpec {
  terminationGracePeriodSeconds?: number;
  restartPolicy?: string;
  securityContext?: { runAsNonRoot?: boolean; runAsUser?: number; runAsGroup?: number };
  containers: Container[];
  volumes?: { name: string }[];
}
interface Workload {
  kind: string;
  name: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  pod: PodSpec;
}

const docs = k8sDocuments();
const objects = docs.map((d) => d.doc);
const workloads: Workload[] = objects
  .filter((o) => o.kind === 'Deployment' || o.kind === 'Job')
  .map((o) => {
    const template = (o.spec as { template: { metadata?: Record<string, never>; spec: PodSpec } }).template;
    const meta = (template.metadata ?? {}) as {
      labels?: Record<string, string>;
      annotations?: Record<string, string>;
    };
    return {
      kind: o.kind,
      name: o.metadata.name,
      labels: meta.labels ?? {},
      annotations: meta.annotations ?? {},
      pod: template.spec,
    };
  });
const named = (name: string): Workload => {
  const w = workloads.find((x) => x.name === name);
  if (!w) throw new Error(`no workload ${name}`);
  return w;
};
const configMap = objects.find((o) => o.kind === 'ConfigMap')?.data ?? {};
const role = (w: Workload): string => w.pod.containers[0]?.args[0] ?? '';
/** Bytes of a Kubernetes memory quantity (Mi, Gi). */
const bytes = (q: string): number => {
  const m = /^(\d+)(Mi|Gi)$/.exec(q);
  if (!m) throw new Error(`unexpected quantity ${q}`);
  return Number(m[1]) * (m[2] === 'Gi' ? 1024 ** 3 : 1024 ** 2);
};
/** The user of the image's runtime stage (the last USER of infra/Dockerfile). */
const imageUser = (): number => {
  const users = [...readText('infra/Dockerfile').matchAll(/^USER (\d+):(\d+)$/gm)];
  return Number(users.at(-1)?.[1]);
};

let commands: string[];
beforeAll(() => {
  commands = mdqCommands();
});

describe('infra/k8s manifests', () => {
  it('every document is valid against the Kubernetes schemas', () => {
    expect(docs.length).toBeGreaterThanOrEqual(8);
    for (const { file, doc } of docs) {
      const Model = modelOf(doc.apiVersion, doc.kind);
      expect(() => new Model(doc).validate(), `${file}: ${doc.kind} ${doc.metadata.name}`).not.toThrow();
    }
  });

  it('the schema check rejects a manifest with a wrong field type', () => {
    const api = objects.find((o) => o.metadata.name === 'mdq-api' && o.kind === 'Deployment') as K8sObject;
    const broken = structuredClone(api) as unknown as { spec: { template: { spec: PodSpec } } };
    (broken.spec.template.spec.containers[0] as unknown as { ports: unknown[] }).ports = [
      { containerPort: 'http' },
    ];
    const Model = modelOf('apps/v1', 'Deployment');
    expect(() => new Model(broken).validate()).toThrow(/containerPort/);
  });

  it('every container runs a real mdq command, from one image, with the Secret and ConfigMap that exist', () => {
    const images = new Set(workloads.flatMap((w) => w.pod.containers.map((c) => c.image)));
    expect(images.size).toBe(1);
    const names = new Set(objects.map((o) => `${o.kind}/${o.metadata.name}`));
    for (const w of workloads) {
      for (const c of w.pod.containers) {
        expect(commands, `${w.name}`).toContain(c.args[0]);
        for (const from of c.envFrom ?? []) {
          if (from.secretRef) expect(names).toContain(`Secret/${from.secretRef.name}`);
          if (from.configMapRef) expect(names).toContain(`ConfigMap/${from.configMapRef.name}`);
        }
      }
    }
    expect(workloads.map(role).sort()).toEqual(['api', 'backfill', 'indexer', 'migrate', 'worker']);
  });

  it('every pod runs as the image user, on a read-only root filesystem, with memory requests and limits', () => {
    const uid = imageUser();
    expect(uid).toBeGreaterThan(0);
    for (const w of workloads) {
      expect(w.pod.securityContext, w.name).toMatchObject({ runAsNonRoot: true, runAsUser: uid });
      const volumes = new Set((w.pod.volumes ?? []).map((v) => v.name));
      for (const c of w.pod.containers) {
        expect(c.securityContext, w.name).toMatchObject({
          readOnlyRootFilesystem: true,
          allowPrivilegeEscalation: false,
        });
        expect(c.securityContext?.capabilities?.drop).toContain('ALL');
        const request = bytes(c.resources?.requests?.['memory'] ?? '');
        const limit = bytes(c.resources?.limits?.['memory'] ?? '');
        expect(limit, w.name).toBeGreaterThanOrEqual(request);
        expect(c.resources?.requests?.['cpu'], w.name).toBeDefined();
        for (const mount of c.volumeMounts ?? []) expect(volumes, w.name).toContain(mount.name);
      }
    }
  });

  it('the API and the workers can write the thumbnail cache under MDQ_DATA_DIR, every long-running pod /tmp', () => {
    const dataDir = configMap['MDQ_DATA_DIR'];
    expect(dataDir).toBe('/data');
    for (const name of ['mdq-api', 'mdq-worker'])
      expect(named(name).pod.containers[0]?.volumeMounts?.map((m) => m.mountPath)).toContain(dataDir);
    for (const name of ['mdq-api', 'mdq-worker', 'mdq-indexer', 'mdq-backfill-0'])
      expect(named(name).pod.containers[0]?.volumeMounts?.map((m) => m.mountPath)).toContain('/tmp');
  });

  it('grace periods outlast a batch and a job (the 30 s default does not), the API drains before SIGTERM', () => {
    expect(named('mdq-indexer').pod.terminationGracePeriodSeconds).toBeGreaterThan(30);
    expect(named('mdq-worker').pod.terminationGracePeriodSeconds).toBeGreaterThan(30);
    const api = named('mdq-api');
    const preStop = api.pod.containers[0]?.lifecycle?.preStop?.exec?.command ?? [];
    expect(preStop[0]).toBe('sleep');
    expect(api.pod.terminationGracePeriodSeconds).toBeGreaterThan(Number(preStop[1]));
  });

  it('a PodDisruptionBudget and the Service select the API pods', () => {
    const labels = named('mdq-api').labels;
    const pdb = objects.find((o) => o.kind === 'PodDisruptionBudget') as K8sObject;
    const pdbSelector = (pdb.spec as { selector: { matchLabels: Record<string, string> } }).selector
      .matchLabels;
    expect(labels).toMatchObject(pdbSelector);
    const service = objects.find((o) => o.kind === 'Service') as K8sObject;
    expect(labels).toMatchObject((service.spec as { selector: Record<string, string> }).selector);
  });

  it('migrations are a Job of their own, run once to completion', () => {
    const migrate = named('mdq-migrate');
    expect(migrate.kind).toBe('Job');
    expect(migrate.pod.restartPolicy).toBe('Never');
    expect(migrate.pod.containers[0]?.args).toEqual(['migrate']);
  });

  it('Prometheus scrapes the port each role serves /metrics on', () => {
    for (const w of workloads.filter((x) => x.annotations['prometheus.io/scrape'] === 'true')) {
      const port = role(w) === 'api' ? configMap['PORT'] : configMap['MDQ_METRICS_PORT'];
      expect(w.annotations['prometheus.io/port'], w.name).toBe(port);
    }
  });
});

describe('infra/compose.yaml', () => {
  const compose = parse(readText('infra/compose.yaml'), { merge: true }) as {
    services: Record<
      string,
      { build?: { context: string; dockerfile: string }; command?: string[]; stop_grace_period?: string }
    >;
  };
  const mdqServices = Object.entries(compose.services).filter(([, s]) => s.build);

  it('builds the image from infra/Dockerfile and runs real mdq commands', () => {
    expect(mdqServices.map(([name]) => name).sort()).toEqual(['api', 'indexer', 'migrate', 'worker']);
    for (const [name, service] of mdqServices) {
      expect(service.build, name).toEqual({ context: '..', dockerfile: 'infra/Dockerfile' });
      expect(commands, name).toContain(service.command?.[0]);
    }
  });

  it('gives the indexer and the workers more than the 10 s compose waits by default before SIGKILL', () => {
    for (const name of ['indexer', 'worker']) {
      const grace = /^(\d+)s$/.exec(compose.services[name]?.stop_grace_period ?? '');
      expect(Number(grace?.[1]), name).toBeGreaterThan(10);
    }
  });
});
