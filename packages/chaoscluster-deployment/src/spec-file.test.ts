import { chmodSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { scratchFiles } from '@chaoskit/cluster/testing';
import { describe, expect, it } from 'vitest';
import { loadDeploymentSpec, parseDeploymentSpec, SpecFileError, specFormat } from './spec-file.js';

const { dir, write: file } = scratchFiles('chaoskit-spec-');

const deployment = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', labels: { app: 'web' } },
  spec: {
    replicas: 2,
    selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'x:1' }] } },
  },
};

const yamlText = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels: {app: web}
spec:
  replicas: 2
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: app
        image: "x:1"
`;

function reason(load: () => unknown): string {
  try {
    load();
  } catch (err) {
    expect(err).toBeInstanceOf(SpecFileError);
    return (err as Error).message;
  }
  throw new Error('expected a SpecFileError');
}

describe('specFormat', () => {
  it('reads the extension, in any letter case', () => {
    expect(specFormat('/a/b.json')).toBe('json');
    expect(specFormat('b.yaml')).toBe('yaml');
    expect(specFormat('b.yml')).toBe('yaml');
    expect(specFormat('B.YAML')).toBe('yaml');
    expect(specFormat('b.txt')).toBeUndefined();
    expect(specFormat('json')).toBeUndefined();
    expect(specFormat('b.json.bak')).toBeUndefined();
  });
});

describe('loadDeploymentSpec', () => {
  it('reads a .json file as JSON', () => {
    const path = file('web.json', JSON.stringify(deployment));
    expect(loadDeploymentSpec(path)).toEqual({ path, format: 'json', body: deployment });
  });

  it('reads .yaml and .yml files as YAML', () => {
    for (const name of ['web.yaml', 'web.yml']) {
      const path = file(name, yamlText);
      expect(loadDeploymentSpec(path)).toEqual({ path, format: 'yaml', body: deployment });
    }
  });

  it('accepts YAML anchors and merge keys, a leading --- and trailing empty documents', () => {
    const path = file(
      'merge.yaml',
      `---\nx-labels: &labels {app: web}\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  labels:\n    <<: *labels\n    tier: front\nspec: {replicas: 1}\n---\n# nothing\n`,
    );
    const body = loadDeploymentSpec(path).body;
    expect(body.metadata?.labels).toEqual({ app: 'web', tier: 'front' });
  });

  it('fills in apiVersion apps/v1 when the document has none', () => {
    const { apiVersion: _, ...rest } = deployment;
    expect(parseDeploymentSpec(JSON.stringify(rest), 'json').apiVersion).toBe('apps/v1');
  });

  it('keeps YAML scalars as YAML 1.2 reads them (no yes/no booleans, no dates)', () => {
    const body = parseDeploymentSpec(
      'kind: Deployment\nmetadata: {name: web, annotations: {a: yes, b: 2024-01-01, c: "010"}}\nspec: {}\n',
      'yaml',
    );
    expect(body.metadata?.annotations).toEqual({ a: 'yes', b: '2024-01-01', c: '010' });
  });

  it('refuses an unknown extension without reading the file', () => {
    expect(reason(() => loadDeploymentSpec(join(dir, 'absent.txt')))).toMatch(/'\.txt' is neither/);
    expect(reason(() => loadDeploymentSpec(join(dir, 'noext')))).toMatch(/no extension/);
  });

  it('refuses a missing file, a directory and an unreadable file', () => {
    expect(reason(() => loadDeploymentSpec(join(dir, 'missing.yaml')))).toBe('no such file');
    mkdirSync(join(dir, 'folder.json'));
    expect(reason(() => loadDeploymentSpec(join(dir, 'folder.json')))).toBe('it is not a file');
    if (process.getuid?.() !== 0) {
      const path = file('locked.yaml', yamlText);
      chmodSync(path, 0);
      expect(reason(() => loadDeploymentSpec(path))).toMatch(/cannot be read/);
    }
  });

  it('refuses malformed JSON and YAML, saying where', () => {
    expect(reason(() => loadDeploymentSpec(file('bad.json', '{"kind": "Deployment",')))).toMatch(
      /^the file is not valid JSON: /,
    );
    expect(reason(() => loadDeploymentSpec(file('bad.yaml', 'kind: Deployment\n  metadata: [a\n')))).toMatch(
      'the file is not valid YAML: bad indentation of a mapping entry at line 2, column 11',
    );
    expect(reason(() => loadDeploymentSpec(file('dup.yaml', 'kind: Deployment\nkind: Service\n')))).toMatch(
      'the file is not valid YAML: duplicated mapping key at line 2, column 1',
    );
  });

  it('refuses empty files and files of several documents', () => {
    expect(reason(() => loadDeploymentSpec(file('empty.json', ' \n')))).toBe('the file is empty');
    expect(reason(() => loadDeploymentSpec(file('empty.yaml', '# only a comment\n')))).toBe(
      'the file holds no document',
    );
    expect(reason(() => loadDeploymentSpec(file('two.yaml', `${yamlText}---\n${yamlText}`)))).toBe(
      'the file holds 2 documents; one is expected',
    );
  });

  it('refuses documents that are not one Deployment', () => {
    const parse = (doc: unknown) => reason(() => parseDeploymentSpec(JSON.stringify(doc), 'json'));
    expect(parse([deployment])).toBe('the document is a list, not a Deployment mapping');
    expect(parse('web')).toBe('the document is a string, not a Deployment mapping');
    expect(parse(null)).toBe('the document is null, not a Deployment mapping');
    expect(parse({ ...deployment, kind: 'Service' })).toBe('the document is a "Service", not a Deployment');
    expect(parse({ ...deployment, kind: undefined })).toMatch(/has no kind/);
    expect(parse({ ...deployment, apiVersion: 'extensions/v1beta1' })).toMatch(/served as apps\/v1/);
    expect(parse({ ...deployment, metadata: undefined })).toBe('the document has no metadata');
    expect(parse({ ...deployment, metadata: { labels: {} } })).toBe('the document has no metadata.name');
    expect(parse({ ...deployment, metadata: { name: 'web', namespace: 3 } })).toMatch(/namespace/);
    expect(parse({ ...deployment, spec: undefined })).toBe('the document has no spec');
  });

  it('accepts metadata.generateName in place of metadata.name', () => {
    const doc = { ...deployment, metadata: { generateName: 'web-' } };
    expect(parseDeploymentSpec(JSON.stringify(doc), 'json').metadata).toEqual({ generateName: 'web-' });
  });
});
