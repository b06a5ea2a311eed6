// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${name} placeholders are the subject under test, not template literals.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isChaosError } from '@chaoskit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ProcessProvider, resolveExecutable, runProcess, validateProcessProvider } from './process.js';

const dir = mkdtempSync(join(tmpdir(), 'chaoskit-process-'));
const script = join(dir, 'args.sh');
const notExecutable = join(dir, 'plain.txt');
const spaced = join(dir, 'with space', 'args.sh');

beforeAll(() => {
  writeFileSync(script, '#!/bin/sh\nfor a in "$@"; do printf "[%s]" "$a"; done\necho\n');
  chmodSync(script, 0o755);
  writeFileSync(notExecutable, 'hello\n');
  chmodSync(notExecutable, 0o644);
  mkdirSync(join(dir, 'with space'));
  writeFileSync(spaced, '#!/bin/sh\necho "spaced $*"\n');
  chmodSync(spaced, 0o755);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const configuration = { name: 'world', n: 8, flag: true, list: ['a', 'b'] };
const secrets = { vault: { token: 's3cr3t-value' } };

describe('runProcess', () => {
  // [name, provider (path may use SCRIPT), expected stdout, expected status?]
  const cases: [string, () => ProcessProvider, string, number?][] = [
    ['no arguments', () => ({ path: 'echo' }), '\n'],
    ['list', () => ({ path: 'echo', arguments: ['hello', 'world'] }), 'hello world\n'],
    [
      'list drops null and empty',
      () => ({ path: script, arguments: ['a', null, '', 'b', 0, false] }),
      '[a][b][0][false]\n',
    ],
    ['list keeps spaces in an item', () => ({ path: script, arguments: ['a b', 'c'] }), '[a b][c]\n'],
    [
      'list renders mappings as JSON',
      () => ({ path: script, arguments: [{ a: 1 }, [1, 2]] }),
      '[{"a":1}][[1,2]]\n',
    ],
    [
      'mapping (deprecated) flattened',
      () => ({ path: script, arguments: { '--a': '1', '--b': null, '-c': '' } }),
      '[--a][1][--b][-c]\n',
    ],
    ['string through the shell', () => ({ path: 'echo', arguments: 'hello   world' }), 'hello world\n'],
    ['string with shell expansion', () => ({ path: 'echo', arguments: '$((1 + 2)) | tr 3 X' }), 'X\n'],
    ['string arguments with a spaced path', () => ({ path: spaced, arguments: 'x' }), 'spaced x\n'],
    ['empty string', () => ({ path: 'echo', arguments: '' }), '\n'],
    ['null arguments', () => ({ path: 'echo', arguments: null }), '\n'],
    [
      'list substituted',
      () => ({ path: script, arguments: ['${name}', '${n}', '${flag}', 'n=${n}'] }),
      '[world][8][true][n=8]\n',
    ],
    ['whole list substituted', () => ({ path: script, arguments: '${list}' as never }), '[a][b]\n'],
    ['string substituted', () => ({ path: 'echo', arguments: 'hello ${name}' }), 'hello world\n'],
    ['secrets substituted', () => ({ path: 'echo', arguments: ['${token}'] }), 's3cr3t-value\n'],
    ['$$ is a literal $', () => ({ path: 'echo', arguments: ['$$x'] }), '$x\n'],
    ['unknown placeholder kept', () => ({ path: 'echo', arguments: ['${nope}'] }), '${nope}\n'],
    [
      'non-zero exit is not an error',
      () => ({ path: 'sh', arguments: ['-c', 'echo out; exit 3'] }),
      'out\n',
      3,
    ],
  ];
  it.each(cases)('%s', async (_name, provider, stdout, status = 0) => {
    const result = await runProcess(provider(), { configuration, secrets });
    expect(result).toEqual({ status, stdout, stderr: '' });
  });

  it('captures stderr and the exit status', async () => {
    const result = await runProcess({ path: 'sh', arguments: ['-c', 'echo out; echo err >&2; exit 7'] }, {});
    expect(result).toEqual({ status: 7, stdout: 'out\n', stderr: 'err\n' });
  });

  it('expands ~ to HOME', async () => {
    const result = await runProcess(
      { path: '~/args.sh', arguments: ['x'] },
      { env: { ...process.env, HOME: dir } },
    );
    expect(result.stdout).toBe('[x]\n');
  });

  it('inherits the environment, or uses opts.env', async () => {
    const env = { PATH: process.env.PATH, CHAOSKIT_TEST_VAR: 'from-env' };
    const result = await runProcess({ path: 'sh', arguments: ['-c', 'echo $CHAOSKIT_TEST_VAR'] }, { env });
    expect(result.stdout).toBe('from-env\n');
  });

  it('reports a signal as a negative status', async () => {
    // `$$$$`: substitution turns `$$` into `$`, so the shell's own `$$` is written twice.
    const result = await runProcess({ path: 'sh', arguments: ['-c', 'kill -TERM $$$$'] }, {});
    expect(result.status).toBe(-15);
  });

  it('decodes invalid UTF-8 with replacement characters', async () => {
    const result = await runProcess({ path: 'printf', arguments: ['\\377ok'] }, {});
    expect(result.stdout).toBe('\uFFFDok');
  });

  const failures: [string, () => ProcessProvider, RegExp][] = [
    [
      'missing executable',
      () => ({ path: 'chaoskit-no-such-binary' }),
      /path 'chaoskit-no-such-binary' cannot be found/,
    ],
    ['missing file path', () => ({ path: '/no/such/file' }), /path '\/no\/such\/file' cannot be found/],
    ['directory', () => ({ path: dir }), /cannot be found/],
    ['not executable', () => ({ path: notExecutable }), /no access permission to '.*plain.txt'/],
    ['empty path', () => ({ path: '' }), /must have a path/],
    [
      'bad arguments',
      () => ({ path: 'echo', arguments: 5 as never }),
      /arguments must be a string, a list or a mapping/,
    ],
  ];
  it.each(failures)('fails with ActivityFailed: %s', async (_name, provider, message) => {
    const error = await runProcess(provider(), {}).catch((e: unknown) => e);
    expect(isChaosError(error, 'ActivityFailed')).toBe(true);
    expect((error as Error).message).toMatch(message);
  });

  it('kills the process (group) on timeout', async () => {
    const started = Date.now();
    // The shell's child `sleep` would keep the pipes open if only the shell were killed.
    const error = await runProcess(
      { path: 'sh', arguments: ['-c', 'sleep 10; echo done'], timeout: 0.3 },
      {},
    ).catch((e: unknown) => e);
    expect(isChaosError(error, 'ActivityFailed')).toBe(true);
    expect((error as Error).message).toBe('process activity took too long to complete');
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('does not time out a process that finishes in time', async () => {
    const result = await runProcess({ path: 'sleep', arguments: ['0.1'], timeout: 5 }, {});
    expect(result.status).toBe(0);
  });

  it('rejects with the abort reason when the signal aborts', async () => {
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(new Error('interrupted by the user')), 200);
    const error = await runProcess({ path: 'sleep', arguments: ['10'] }, { signal: controller.signal }).catch(
      (e: unknown) => e,
    );
    expect((error as Error).message).toBe('interrupted by the user');
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('does not start when the signal is already aborted', async () => {
    const marker = join(dir, 'started');
    const error = await runProcess(
      { path: 'touch', arguments: [marker] },
      { signal: AbortSignal.abort(new Error('too late')) },
    ).catch((e: unknown) => e);
    expect((error as Error).message).toBe('too late');
    expect(resolveExecutable(marker)).toEqual({ problem: 'not-found' });
  });
});

describe('resolveExecutable', () => {
  const cases: [
    string,
    () => [string, NodeJS.ProcessEnv | undefined],
    (r: ReturnType<typeof resolveExecutable>) => void,
  ][] = [
    [
      'a name on PATH',
      () => ['sh', undefined],
      (r) => expect(r).toMatchObject({ path: expect.stringMatching(/\/sh$/) }),
    ],
    [
      'a name on a given PATH',
      () => ['args.sh', { PATH: `/nonexistent:${dir}` }],
      (r) => expect(r).toEqual({ path: join(dir, 'args.sh') }),
    ],
    [
      'a name not on PATH',
      () => ['args.sh', { PATH: '/nonexistent' }],
      (r) => expect(r).toEqual({ problem: 'not-found' }),
    ],
    [
      'a non-executable on PATH',
      () => ['plain.txt', { PATH: dir }],
      (r) => expect(r).toEqual({ problem: 'not-executable' }),
    ],
    ['an absolute path', () => [script, undefined], (r) => expect(r).toEqual({ path: script })],
  ];
  it.each(cases)('%s', (_name, input, check) => {
    const [path, env] = input();
    check(resolveExecutable(path, env));
  });
});

describe('validateProcessProvider', () => {
  const cases: [string, () => unknown, string | undefined][] = [
    ['valid, on PATH', () => ({ type: 'process', path: 'echo', arguments: ['x'] }), undefined],
    [
      'valid, string arguments and timeout',
      () => ({ type: 'process', path: 'echo', arguments: 'x', timeout: 3 }),
      undefined,
    ],
    [
      'valid, mapping arguments',
      () => ({ type: 'process', path: script, arguments: { '-a': 1 } }),
      undefined,
    ],
    ['not a mapping', () => 'echo', 'a process provider must be a mapping'],
    ['no path', () => ({ type: 'process' }), 'a process activity must have a path'],
    ['empty path', () => ({ type: 'process', path: '' }), 'a process activity must have a path'],
    [
      'not found',
      () => ({ type: 'process', path: 'chaoskit-no-such-binary' }),
      "path 'chaoskit-no-such-binary' cannot be found (not an executable file, nor on PATH)",
    ],
    [
      'not executable',
      () => ({ type: 'process', path: notExecutable }),
      `no access permission to '${notExecutable}' (not executable)`,
    ],
    [
      'bad arguments',
      () => ({ type: 'process', path: 'echo', arguments: 3 }),
      'process activity arguments must be a string, a list or a mapping, got number',
    ],
    [
      'bad timeout',
      () => ({ type: 'process', path: 'echo', timeout: '3' }),
      'process activity timeout must be a number of seconds, got "3"',
    ],
    [
      'negative timeout',
      () => ({ type: 'process', path: 'echo', timeout: -1 }),
      'process activity timeout must be a number of seconds, got -1',
    ],
  ];
  it.each(cases)('%s', (_name, provider, problem) => {
    expect(validateProcessProvider(provider())).toBe(problem);
  });

  it('resolves against the given environment', () => {
    expect(validateProcessProvider({ path: 'args.sh' }, { PATH: dir })).toBeUndefined();
    expect(validateProcessProvider({ path: 'args.sh' }, { PATH: '/nonexistent' })).toMatch(/cannot be found/);
  });
});
