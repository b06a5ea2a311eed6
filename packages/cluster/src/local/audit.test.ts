import { appendFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { auditLogSize, isMutation, readAuditLog } from './audit.js';

const event = (verb: string, user = 'u') =>
  JSON.stringify({
    auditID: verb,
    stage: 'ResponseComplete',
    verb,
    requestURI: '/',
    user: { username: user },
    requestReceivedTimestamp: new Date().toISOString(),
  });

it('reads complete lines only, as the apiserver may be halfway through writing the last one', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'chaoskit-audit-'));
  try {
    const path = join(dir, 'audit.log');
    await writeFile(path, `${event('list')}\n${event('create', 'other')}\n${event('delete').slice(0, 40)}`);
    expect((await readAuditLog(path)).map((e) => e.verb)).toEqual(['list', 'create']);
    expect((await readAuditLog(path, { user: 'u' })).map((e) => e.verb)).toEqual(['list']);
    expect(await readAuditLog(join(dir, 'missing.log'))).toEqual([]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

it("finds one user's events without mistaking a longer name or another field for it", async () => {
  const dir = await mkdtemp(join(tmpdir(), 'chaoskit-audit-'));
  try {
    const path = join(dir, 'audit.log');
    const impersonating = JSON.stringify({
      ...JSON.parse(event('patch', 'admin')),
      impersonatedUser: { username: 'u' },
    });
    await writeFile(
      path,
      [
        event('get', 'u'),
        event('list', 'u2'),
        impersonating,
        event('watch', 'a&b'),
        event('delete', 'u'),
        '',
      ].join('\n'),
    );
    expect((await readAuditLog(path, { user: 'u' })).map((e) => e.verb)).toEqual(['get', 'delete']);
    expect((await readAuditLog(path, { user: 'a&b' })).map((e) => e.verb)).toEqual(['watch']);
    expect((await readAuditLog(path, { user: 'nobody' })).map((e) => e.verb)).toEqual([]);
    // Only what was written after a size taken earlier.
    const size = await auditLogSize(path);
    await appendFile(path, `${event('update', 'u')}\n${event('patch', 'u2')}\n`);
    expect((await readAuditLog(path, { user: 'u', fromByte: size })).map((e) => e.verb)).toEqual(['update']);
    expect((await readAuditLog(path, { fromByte: size })).map((e) => e.verb)).toEqual(['update', 'patch']);
    expect(await auditLogSize(join(dir, 'missing.log'))).toBe(0);
    // A size taken halfway through a line: that line began before, and is left out.
    const half = (await auditLogSize(path)) + 30;
    await appendFile(path, `${event('create', 'u')}\n${event('get', 'u')}\n`);
    expect((await readAuditLog(path, { user: 'u', fromByte: half })).map((e) => e.verb)).toEqual(['get']);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

it('counts writes as mutations, and reviews (a create that stores nothing) not', () => {
  const of = (verb: string, resource: string) => ({ ...JSON.parse(event(verb)), objectRef: { resource } });
  expect(isMutation(of('delete', 'pods'))).toBe(true);
  expect(isMutation(of('create', 'configmaps'))).toBe(true);
  expect(isMutation(of('get', 'pods'))).toBe(false);
  expect(isMutation(of('create', 'selfsubjectaccessreviews'))).toBe(false);
  expect(isMutation(of('create', 'selfsubjectreviews'))).toBe(false);
});
