import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadVarFiles, parseVar } from './vars.js';

describe('--var key[:type]=value', () => {
  it.each<[string, [string, unknown]]>([
    ['ns=shop', ['ns', 'shop']],
    ['ns:str=shop', ['ns', 'shop']],
    ['qty:int=3', ['qty', 3]],
    ['ratio:float=0.5', ['ratio', 0.5]],
    ['dry:bool=true', ['dry', true]],
    ['dry:bool=no', ['dry', false]],
    ['labels:json={"app":"web"}', ['labels', { app: 'web' }]],
    ['empty=', ['empty', '']],
    ['url=http://x/?a=b', ['url', 'http://x/?a=b']],
  ])('%s', (text, expected) => {
    expect(parseVar(text)).toEqual(expected);
  });

  it.each([
    ['no-equals', /key\[:type\]=value/],
    ['1abc=x', /key\[:type\]=value/],
    ['qty:int=three', /not an integer/],
    ['ratio:float=x', /not a number/],
    ['labels:json={', /not JSON/],
    ['k:date=1', /key\[:type\]=value/],
  ])('refuses %s', (text, message) => {
    expect(() => parseVar(text)).toThrow(message);
  });
});

describe('--var-file', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'chaoskit-vars-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads configuration and secrets from JSON and YAML, later files overriding earlier ones', async () => {
    await writeFile(
      join(dir, 'a.json'),
      JSON.stringify({ configuration: { ns: 'a', qty: 1 }, secrets: { k8s: { CLUSTER_CONTEXT: 'a' } } }),
    );
    await writeFile(
      join(dir, 'b.yaml'),
      'configuration:\n  ns: b\nsecrets:\n  k8s:\n    CLUSTER_CONTEXT: b\n',
    );
    const vars = await loadVarFiles([join(dir, 'a.json'), join(dir, 'b.yaml')], {});
    expect(vars).toEqual({ configuration: { ns: 'b', qty: 1 }, secrets: { k8s: { CLUSTER_CONTEXT: 'b' } } });
  });

  it('adds the KEY=VALUE lines of a .env file to the environment', async () => {
    await writeFile(join(dir, 'vars.env'), '# comment\nexport TOKEN="s3cret"\nNS=shop\n\nBROKEN LINE\n');
    const env: NodeJS.ProcessEnv = {};
    const vars = await loadVarFiles([join(dir, 'vars.env')], env);
    expect(env).toEqual({ TOKEN: 's3cret', NS: 'shop' });
    expect(vars).toEqual({ configuration: {}, secrets: {} });
  });
});
