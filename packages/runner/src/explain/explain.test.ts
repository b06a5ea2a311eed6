// `chaoskit explain`: the decision a message names, from the command as users install it (the
// bundle carries the decisions; no tarball holds docs/decisions.md).
import { describe, expect, it } from 'vitest';
import { runCli } from '../testing/test-cli.js';

describe('chaoskit explain', () => {
  it('prints the decision a message names, by its number however written', async () => {
    for (const which of ['D158', 'd158', '158']) {
      const out = await runCli(['explain', which]);
      expect(out.code, out.stderr).toBe(0);
      expect(out.stdout).toMatch(/^### D158\. A record is undone as its writer/);
      expect(out.stdout).toContain('- **Write instead:**');
      // One decision, not the next.
      expect(out.stdout).not.toContain('### D159.');
    }
    // The one that refuses a module no package provides names it.
    const named = await runCli(['explain', 'D79']);
    expect(named.stdout).toMatch(/^### D79\. /);
  });

  it('refuses what is no decision number, and names a number that has none', async () => {
    const bad = await runCli(['explain', 'rm -rf']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe("chaoskit: explain: argument 'rm -rf': a decision's number, such as D79\n");
    // A number past the last decision, built here so no line cites a decision that is not there.
    const past = `D${10 ** 4 - 1}`;
    const none = await runCli(['explain', past]);
    expect(none.code).toBe(1);
    expect(none.stderr).toBe(`chaoskit: explain: there is no decision ${past}\n`);
  });
});
