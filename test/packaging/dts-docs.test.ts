// The declaration files carry the documentation (scripts/dts-docs.mjs): a consumer project
// outside the packages, compiled by the repo's TypeScript with strict options, type-checks
// correct calls and rejects wrong ones; every activity's camelCase export and option has its
// JSDoc, derived from the definition; and an editor's hover (tsc --lsp) shows it.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AnyActivity } from '@chaoskit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LspClient, nativeTsc } from './lsp.js';
import { isActivityPackage, repoRoot, workspacePackages } from './repo.js';

const activityPackages = workspacePackages().filter(isActivityPackage);
const pascal = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);

// Imported from the built packages (this test project has no source aliases).
const loaded = await Promise.all(
  activityPackages.map(async (p) => ({
    ...p,
    activities: ((await import(p.manifest.name)) as { activities: readonly AnyActivity[] }).activities,
  })),
);

// ---------------------------------------------------------------------------------------------
// The consumer project
// ---------------------------------------------------------------------------------------------

const GOOD = `import { scaleDeployment } from '@chaoskit/chaoscluster-deployment';
import { killMicroservice } from '@chaoskit/chaoscluster-deprecated';
import { type TerminatePodsOptions, terminatePods } from '@chaoskit/chaoscluster-pod';

export async function experiment(signal: AbortSignal): Promise<string[]> {
  const { pods, seed } = await terminatePods({ labelSelector: 'app=web', qty: 2, rand: true, ns: 'shop', signal });
  const repeat: TerminatePodsOptions = { labelSelector: 'app=web', rand: true, seed: seed ?? null, gracePeriod: 0 };
  await terminatePods(repeat);
  await scaleDeployment({ name: 'web', replicas: 3, ns: 'shop', dryRun: true });
  await killMicroservice({ name: 'legacy' });
  return pods;
}
`;

/** Wrong calls, each with the error tsc must report. */
const BAD: Record<string, { code: string; line: string; message: RegExp }> = {
  'bad-option-name': {
    code: 'terminatePods({ labelSelecter: "app=web" });',
    line: 'terminatePods',
    message: /'labelSelecter' does not exist in type 'TerminatePodsOptions'/,
  },
  'bad-option-type': {
    code: 'terminatePods({ qty: "2" });',
    line: 'qty',
    message: /Type 'string' is not assignable to type 'number'/,
  },
  'bad-enum-value': {
    code: 'terminatePods({ mode: "some" });',
    line: 'mode',
    message: /Type '"some"' is not assignable to type '"fixed" \| "percentage"/,
  },
  'bad-missing-required': {
    code: 'scaleDeployment({ replicas: 3 });',
    line: 'scaleDeployment',
    message: /Property 'name' is missing/,
  },
  'bad-no-options': {
    code: 'scaleDeployment();',
    line: 'scaleDeployment',
    message: /Expected 1 arguments, but got 0/,
  },
  'bad-result-type': {
    code: 'const count: number = (await terminatePods()).pods;',
    line: 'count',
    message: /Type 'string\[\]' is not assignable to type 'number'/,
  },
};

/** For every activity: its Options interface is exactly the inferred options type. */
function allActivitiesFile(): string {
  const lines = [
    'type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;',
    'type Expect<T extends true> = T;',
  ];
  loaded.forEach((p, i) => {
    lines.push(`import type * as p${i} from '${p.manifest.name}';`);
    for (const a of p.activities) {
      const inferred = `Parameters<typeof p${i}.${a.camelName}Activity.fn>`;
      lines.push(
        `export type ${a.camelName}_${i} = [Expect<Equal<p${i}.${pascal(a.camelName)}Options, NonNullable<${inferred}[0]>>>, Expect<Equal<Parameters<typeof p${i}.${a.camelName}>[0], ${inferred}[0]>>, Expect<Equal<ReturnType<typeof p${i}.${a.camelName}>, ReturnType<typeof p${i}.${a.camelName}Activity.fn>>>];`,
      );
    }
  });
  return `${lines.join('\n')}\n`;
}

let consumer: string;

interface Diagnostic {
  file: string;
  line: number;
  code: string;
  message: string;
}

function compile(): Diagnostic[] {
  const tsc = resolve(repoRoot, 'node_modules/typescript/bin/tsc');
  const run = spawnSync(process.execPath, [tsc, '-p', consumer, '--pretty', 'false'], {
    cwd: consumer,
    encoding: 'utf8',
  });
  const diagnostics: Diagnostic[] = [];
  for (const line of run.stdout.split('\n')) {
    const match = /^(.+?)\((\d+),\d+\): error (TS\d+): (.*)$/.exec(line);
    if (match) {
      diagnostics.push({
        file: resolve(consumer, match[1] as string),
        line: Number(match[2]),
        code: match[3] as string,
        message: match[4] as string,
      });
    } else if (/^\s/.test(line) && diagnostics.length) {
      (diagnostics.at(-1) as Diagnostic).message += `\n${line.trim()}`;
    }
  }
  return diagnostics;
}

let diagnostics: Diagnostic[] = [];

beforeAll(() => {
  consumer = mkdtempSync(join(tmpdir(), 'chaoskit-consumer-'));
  // The consumer sees the packages as an installation would: through node_modules.
  symlinkSync(join(repoRoot, 'node_modules'), join(consumer, 'node_modules'), 'dir');
  writeFileSync(join(consumer, 'package.json'), '{ "type": "module", "private": true }\n');
  writeFileSync(
    join(consumer, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'es2023',
        lib: ['es2023'],
        module: 'nodenext',
        moduleResolution: 'nodenext',
        strict: true,
        noUncheckedIndexedAccess: true,
        exactOptionalPropertyTypes: false,
        // Our declaration files are checked like the consumer's own code.
        skipLibCheck: false,
        noEmit: true,
        types: ['node'],
      },
      include: ['*.ts'],
    }),
  );
  writeFileSync(join(consumer, 'good.ts'), GOOD);
  for (const [name, bad] of Object.entries(BAD)) {
    writeFileSync(
      join(consumer, `${name}.ts`),
      `import { scaleDeployment } from '@chaoskit/chaoscluster-deployment';\nimport { terminatePods } from '@chaoskit/chaoscluster-pod';\n\nvoid scaleDeployment;\nvoid terminatePods;\n${bad.code}\nexport {};\n`,
    );
  }
  writeFileSync(join(consumer, 'all-activities.ts'), allActivitiesFile());
  diagnostics = compile();
});

afterAll(() => {
  if (consumer) rmSync(consumer, { recursive: true, force: true });
});

// Third-party declaration files are not ours to judge (@kubernetes/client-node's types need
// @types/ws under skipLibCheck: false); ours resolve to packages/*, outside node_modules.
const ours = () => diagnostics.filter((d) => !d.file.includes('/node_modules/'));

describe('a consumer compiled with tsc --strict', () => {
  it('type-checks correct calls of two activities (and a deprecated one)', () => {
    expect(ours().filter((d) => d.file === join(consumer, 'good.ts'))).toEqual([]);
  });

  it('finds no error in the packages’ declaration files', () => {
    expect(ours().filter((d) => d.file.startsWith(join(repoRoot, 'packages')))).toEqual([]);
  });

  it.each(Object.entries(BAD))('rejects %s', (name, bad) => {
    const found = ours().filter((d) => d.file === join(consumer, `${name}.ts`));
    expect(found, JSON.stringify(found)).toHaveLength(1);
    expect(found[0]?.message).toMatch(bad.message);
  });

  it('gets, for every activity, an Options interface identical to the inferred options', () => {
    expect(ours().filter((d) => d.file === join(consumer, 'all-activities.ts'))).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// The emitted declaration files
// ---------------------------------------------------------------------------------------------

/** The text of the JSDoc block that ends right before `index` (stars and indentation removed). */
function jsdocBefore(text: string, index: number): string | undefined {
  const before = text.slice(0, index).trimEnd();
  if (!before.endsWith('*/')) return undefined;
  const start = before.lastIndexOf('/**');
  return before
    .slice(start + 3, -2)
    .split('\n')
    .map((line) => line.replace(/^\s*\* ?/, ''))
    .join('\n')
    .trim();
}

const flat = (text: string) => text.replace(/\s+/g, ' ').trim();

describe.each(loaded.map((p) => [p.short, p] as const))('%s declarations', (_, p) => {
  const dist = join(p.dir, 'dist');
  const declarations = readdirSync(dist, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.d.ts'))
    .map((f) => readFileSync(join(dist, f), 'utf8'));

  it.each(p.activities.map((a) => [a.camelName, a] as const))(
    '%s: documented from its definition',
    (_, a) => {
      const fnHead = `export declare const ${a.camelName}:`;
      const text = declarations.find((d) => d.includes(`\n${fnHead}`));
      expect(text, fnHead).toBeDefined();
      if (!text) return;
      const fnDoc = jsdocBefore(text, text.indexOf(`\n${fnHead}`)) ?? '';
      expect(flat(fnDoc)).toContain(flat(a.doc));
      expect(fnDoc).toContain(`Experiment activity: \`${a.qualifiedName}\` (${a.kind}).`);
      expect(fnDoc.includes('@deprecated')).toBe(a.deprecated);
      if (a.deprecationNote) expect(fnDoc).toContain(`@deprecated Use instead: ${a.deprecationNote}.`);
      const required = a.arguments.some((arg) => arg.required);
      const optionsName = `${pascal(a.camelName)}Options`;
      expect(text).toContain(`${fnHead} (options${required ? '' : '?'}: ${optionsName}) =>`);

      const head = `export interface ${optionsName} extends CallOptions {`;
      const start = text.indexOf(head);
      expect(start, head).toBeGreaterThanOrEqual(0);
      const body = text.slice(start, text.indexOf('\n}', start));
      expect(body.match(/^ {4}\w+\??: /gm) ?? []).toHaveLength(a.arguments.length);
      for (const arg of a.arguments) {
        const property = `\n    ${arg.camelName}${arg.required ? '' : '?'}: NonNullable<Parameters<typeof ${a.camelName}Activity.fn>[0]>['${arg.camelName}'];`;
        const at = body.indexOf(property);
        expect(at, `${a.camelName}.${arg.camelName}`).toBeGreaterThan(0);
        const doc = jsdocBefore(body, at) ?? '';
        expect(flat(doc)).toContain(flat(arg.description ?? ''));
        expect(doc).toContain(`Accepts: ${arg.accepted}.`);
        expect(doc).toContain(`Experiment argument: \`${arg.name}\`.`);
        expect(doc.includes('Default: ')).toBe('default' in arg);
      }
    },
  );
});

// ---------------------------------------------------------------------------------------------
// What an editor shows
// ---------------------------------------------------------------------------------------------

describe('hover in an editor (tsc --lsp)', () => {
  let lsp: LspClient;
  let good: { uri: string; text: string };
  const pod = () => loaded.find((p) => p.short === 'chaoscluster-pod')?.activities ?? [];
  const activity = (pkg: string, name: string) =>
    loaded.find((p) => p.short === pkg)?.activities.find((a) => a.name === name) as AnyActivity;

  beforeAll(async () => {
    lsp = await LspClient.start(nativeTsc(repoRoot), consumer);
    good = lsp.open(join(consumer, 'good.ts'));
  });

  afterAll(async () => {
    await lsp?.stop();
  });

  /** The position of the `nth` occurrence of `needle` in good.ts (inside the word). */
  const at = (needle: string, nth = 0) => {
    let index = -1;
    for (let i = 0; i <= nth; i++) index = good.text.indexOf(needle, index + 1);
    const before = good.text.slice(0, index).split('\n');
    return { line: before.length - 1, character: (before.at(-1) ?? '').length + 1 };
  };

  it('shows the activity doc on the camelCase function', async () => {
    const terminate = activity('chaoscluster-pod', 'terminate_pods');
    const text = await lsp.hover(good.uri, at('terminatePods({'));
    expect(text).toContain('const terminatePods: (options?: TerminatePodsOptions) => Promise<');
    expect(text).toContain(terminate.doc);
    expect(text).toContain('`chaoscluster.pod.actions.terminate_pods`');
    expect(pod().length).toBeGreaterThan(1);
  });

  it('shows the argument’s description, default and what it accepts on an option', async () => {
    const arg = activity('chaoscluster-pod', 'terminate_pods').arguments.find(
      (a) => a.name === 'label_selector',
    );
    const text = await lsp.hover(good.uri, at('labelSelector'));
    expect(text).toContain('TerminatePodsOptions.labelSelector?: string | null | undefined');
    expect(text).toContain(arg?.description);
    expect(text).toContain('Default: `null`.');
    expect(text).toContain(`Accepts: ${arg?.accepted}.`);
  });

  it('shows a required option as required, with no default', async () => {
    const arg = activity('chaoscluster-deployment', 'scale_deployment').arguments.find(
      (a) => a.name === 'replicas',
    );
    const text = await lsp.hover(good.uri, at('replicas'));
    expect(text).toContain('ScaleDeploymentOptions.replicas: number');
    expect(text).toContain(arg?.description);
    expect(text).toContain(`Accepts: ${arg?.accepted}.`);
    expect(text).not.toContain('Default:');
  });

  it('marks a deprecated activity with its replacement', async () => {
    const kill = activity('chaoscluster-deprecated', 'kill_microservice');
    const text = await lsp.hover(good.uri, at('killMicroservice({'));
    expect(text).toContain(kill.doc);
    expect(text).toMatch(/@deprecated/);
    expect(text).toContain(kill.deprecationNote);
  });

  it('goes to the definition in the source (the declaration map follows the rewrite)', async () => {
    const source = join(repoRoot, 'packages/chaoscluster-pod/src/terminate-pods.ts');
    const line = readFileSync(source, 'utf8')
      .split('\n')
      .findIndex((l) => l.startsWith('export const terminatePods ='));
    const found = await lsp.definition(good.uri, at('terminatePods({'));
    expect(found.map((d) => ({ file: fileURLToPath(d.uri), line: d.line }))).toContainEqual({
      file: source,
      line,
    });
  });
});
