#!/usr/bin/env node
// The generated parts of the READMEs, so that what they say about activities and code cannot
// drift from the code:
//
// - between `<!-- generated: activities -->` and `<!-- end: activities -->` in an activity
//   package's README: the table of its activities (arguments and defaults, what each returns,
//   the RBAC it needs), from the built package's `activities` — what defineActivity derived
//   from the one definition — and the list of its `aliases` (activities of other modules it
//   also exposes, as the Python modules expose what they import);
// - between `<!-- snippet: <file>#<region> -->` and `<!-- end: snippet -->` in any README: the
//   lines of that test file between `// #region <region>` and `// #endregion`, so that every
//   code example in a README is code that a test runs.
//
// - between `<!-- generated: commands -->` and `<!-- end: commands -->` in the root README: the
//   `chaoskit` command's commands, as the built program registers them, in `chaoskit --help`'s
//   order;
// - between `// generated: packages` and `// end: packages` in the runner's package/known-packages.ts:
//   chaoskit's own activity packages and the modules each declares in its package.json, so that
//   the runner can name the package to install when one is missing.
//
// `npm run docs` writes them; `test/docs.test.ts` (part of ./dev test) fails when a file
// differs from what this would write.
//
// Usage: node scripts/docs.mjs [--check]

import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

const ACTIVITIES = /(<!-- generated: activities -->\n)([\s\S]*?)(<!-- end: activities -->)/;
const COMMAND_LIST = /(<!-- generated: commands -->)([\s\S]*?)(<!-- end: commands -->)/;
const SNIPPET = /(<!-- snippet: ([^#\s]+)#([\w-]+) -->\n)([\s\S]*?)(<!-- end: snippet -->)/g;

const code = (text) => `\`${String(text).replace(/\|/g, '\\|')}\``;
const cell = (text) => String(text).replace(/\|/g, '\\|').replace(/\n/g, ' ');

function argumentsCell(activity) {
  if (activity.arguments.length === 0) return 'none';
  return activity.arguments
    .map((a) =>
      a.required ? `${code(a.name)} (required)` : `${code(a.name)} = ${code(JSON.stringify(a.default))}`,
    )
    .join('<br>');
}

function rbacCell(activity) {
  return activity.rbac
    .flatMap((rule) =>
      rule.apiGroups.map(
        (group) =>
          `${code(`${group ? `${group}/` : ''}${rule.resources.join(', ')}`)}: ${rule.verbs.join(', ')}`,
      ),
    )
    .join('<br>');
}

/** The aliases of one package: where else its modules find an activity defined elsewhere. */
function aliasesList(aliases) {
  if (!aliases?.length) return [];
  return [
    'Also found in these modules, as the Python modules expose what they import (the same',
    'definitions, not copies):',
    '',
    ...[...aliases]
      .sort((a, b) => a.qualifiedName.localeCompare(b.qualifiedName))
      .map((a) => `- ${code(a.qualifiedName)}: ${code(a.activity.qualifiedName)}`),
    '',
  ];
}

/** The activities table of one package, from its built definitions. */
export function activitiesTable(activities, aliases = []) {
  const rows = [...activities]
    .sort((a, b) => a.qualifiedName.localeCompare(b.qualifiedName))
    .map(
      (a) =>
        `| ${code(a.name)}${a.deprecated ? ' (deprecated)' : ''} | ${a.kind} | ${argumentsCell(a)} | ${cell(a.returns ?? '')} | ${rbacCell(a)} |`,
    );
  return [
    '| activity | kind | arguments (default) | returns | RBAC it needs |',
    '| --- | --- | --- | --- | --- |',
    ...rows,
    '',
    ...aliasesList(aliases),
    "Each argument's documentation and what it accepts: `npx chaoskit discover`, or the editor's hover on",
    'the camelCase export. Generated from the definitions by `npm run docs`; do not edit by hand.',
    '',
  ].join('\n');
}

/** The lines of `file` between `// #region name` and `// #endregion`, dedented. */
export function region(file, name) {
  const lines = readFileSync(file, 'utf8').split('\n');
  const start = lines.findIndex((l) => l.trim() === `// #region ${name}`);
  if (start < 0) throw new Error(`${relative(ROOT, file)}: no '// #region ${name}'`);
  const end = lines.findIndex((l, i) => i > start && l.trim().startsWith('// #endregion'));
  if (end < 0) throw new Error(`${relative(ROOT, file)}: '// #region ${name}' is not closed`);
  const body = lines.slice(start + 1, end);
  const indent = Math.min(...body.filter((l) => l.trim()).map((l) => l.length - l.trimStart().length));
  return body.map((l) => l.slice(indent)).join('\n');
}

function packageDirs() {
  const packages = join(ROOT, 'packages');
  return readdirSync(packages).map((name) => join(packages, name));
}

async function builtActivities(dir) {
  const entry = join(dir, 'dist', 'index.js');
  if (!existsSync(entry)) throw new Error(`${relative(ROOT, entry)} is missing: build first`);
  const mod = await import(pathToFileURL(entry).href);
  return { activities: mod.activities, aliases: mod.aliases ?? [] };
}

/** The commands of the built `chaoskit` program, as `chaoskit --help` lists them. */
async function chaoskitCommands() {
  const cli = join(ROOT, 'packages', 'runner', 'dist', 'cli.js');
  if (!existsSync(cli)) throw new Error(`${relative(ROOT, cli)} is missing: build first`);
  const { COMMANDS } = await import(pathToFileURL(cli).href);
  const { Command } = await import('commander');
  const program = new Command();
  for (const [, load] of COMMANDS) (await load()).register(program);
  return program.commands.filter((c) => !c._hidden).map((c) => c.name());
}

const PACKAGES = /(\/\/ generated: packages\n)([\s\S]*?)(\/\/ end: packages)/;
const KNOWN_PACKAGES = join(ROOT, 'packages', 'runner', 'src', 'package', 'known-packages.ts');

/** The runner's table of chaoskit's packages and their modules, from their package.json files. */
function knownPackages() {
  const text = readFileSync(KNOWN_PACKAGES, 'utf8');
  const declared = packageDirs()
    .map((dir) => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')))
    .filter((m) => m.name.startsWith('@chaoskit/') && m.chaoskit?.modules?.length)
    .sort((a, b) => a.name.localeCompare(b.name));
  const table = `export const CHAOSKIT_PACKAGES: Readonly<Record<string, readonly string[]>> = ${JSON.stringify(
    Object.fromEntries(declared.map((m) => [m.name, m.chaoskit.modules])),
  )};\n`;
  const draft = text.replace(PACKAGES, (_m, open, _body, close) => `${open}${table}${close}`);
  // Formatted as the linter formats the file, so that both agree.
  const biome = join(ROOT, 'node_modules', '.bin', 'biome');
  const formatted = spawnSync(biome, ['format', `--stdin-file-path=${KNOWN_PACKAGES}`], {
    input: draft,
    encoding: 'utf8',
    cwd: ROOT,
  });
  if (formatted.status !== 0) throw new Error(`biome format failed: ${formatted.stderr}`);
  return { path: KNOWN_PACKAGES, text, expected: formatted.stdout };
}

/** Every file with generated parts: its path, its text now, and what it should be. */
export async function readmes() {
  const out = [];
  for (const path of [join(ROOT, 'README.md'), ...packageDirs().map((d) => join(d, 'README.md'))]) {
    if (!existsSync(path)) continue;
    const text = readFileSync(path, 'utf8');
    let expected = text;
    if (ACTIVITIES.test(text)) {
      const { activities, aliases } = await builtActivities(dirname(path));
      expected = expected.replace(
        ACTIVITIES,
        (_m, open, _body, close) => `${open}${activitiesTable(activities, aliases)}${close}`,
      );
    }
    if (COMMAND_LIST.test(text)) {
      const names = await chaoskitCommands();
      expected = expected.replace(
        COMMAND_LIST,
        (_m, open, _body, close) => `${open}${names.join(', ')}${close}`,
      );
    }
    expected = expected.replace(SNIPPET, (_m, open, file, name, _body, close) => {
      const source = resolve(dirname(path), file);
      const lang = file.endsWith('.ts') ? 'ts' : '';
      return `${open}\`\`\`${lang}\n${region(source, name)}\n\`\`\`\n${close}`;
    });
    out.push({ path, text, expected });
  }
  out.push(knownPackages());
  return out;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const check = process.argv.includes('--check');
  let drifted = 0;
  for (const { path, text, expected } of await readmes()) {
    if (text === expected) continue;
    drifted++;
    if (check) process.stderr.write(`${relative(ROOT, path)} differs from its definitions and tests\n`);
    else writeFileSync(path, expected);
  }
  if (check && drifted) {
    process.stderr.write('run `npm run docs` to regenerate them\n');
    process.exit(1);
  }
  process.stdout.write(
    check ? 'READMEs match their definitions and tests\n' : `${drifted} README(s) written\n`,
  );
}
