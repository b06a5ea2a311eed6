// `chaoskit info`: what is installed, as `chaos info` shows it.
import type { Command } from 'commander';
import { installedActivities } from '../resolve-activity.js';
import { RUNNER_VERSION } from '../version.js';

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export function register(program: Command): void {
  program
    .command('info')
    .description("what is installed, as `chaos info` shows it: versions and each activity package's modules")
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) => {
      const { packages, missing, problems } = await installedActivities();
      const info = {
        chaoskit: RUNNER_VERSION,
        node: process.versions.node,
        platform: `${process.platform}-${process.arch}`,
        packages: packages.map((p) => ({
          name: p.name,
          version: p.version,
          dir: p.dir,
          modules: p.modules,
          activities: p.activities.length,
          aliases: p.aliases.length,
        })),
        not_installed: missing,
        problems,
      };
      if (opts.json) {
        process.stdout.write(`${JSON.stringify(info, null, 2)}\n`);
        return;
      }
      const lines = [`chaoskit ${info.chaoskit} on Node ${info.node} (${info.platform})`, ''];
      for (const p of info.packages)
        lines.push(
          `${p.name}@${p.version}: ${count(p.activities, 'activity', 'activities')}${p.aliases ? `, ${count(p.aliases, 'alias', 'aliases')}` : ''} in ${p.modules.join(', ')}`,
          `  ${p.dir}`,
        );
      if (missing.length) lines.push('', `not installed: ${missing.join(', ')}`);
      for (const p of problems) lines.push('', `not loaded: ${p.package}: ${p.problem}`);
      process.stdout.write(`${lines.join('\n')}\n`);
    });
}
