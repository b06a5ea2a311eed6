// The repository stands on its own: nothing in it may point at documents that live outside it
// (they ship nowhere, so neither a reader of the repository nor of an npm tarball can follow
// them), and every decision number cited (D7, …) must be an entry of docs/decisions.md.
//
// Files checked: those git tracks, plus new files not yet added (unless .gitignore'd), so a
// bad line is caught before it is committed.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SELF = 'test/standalone.test.ts';
const DECISIONS = 'docs/decisions.md';

/** Text that refers to documents outside the repository, with what to write instead. */
const OUTSIDE: Array<{ pattern: RegExp; instead: string }> = [
  // `../shared`, not `../shared-fixtures.js` (a module of the conformance cases).
  { pattern: /\.\.\/shared(?![\w-])/, instead: 'a path inside the repository' },
  { pattern: /shared\/(?:fixtures|reference|seeds)\b/, instead: 'a path inside the repository' },
  { pattern: /DESIGN\.md/, instead: 'docs/decisions.md (D<n>), or the fact itself' },
  { pattern: /reference §/i, instead: 'what it is, e.g. "the manifests of 0.25.1\'s networking actions"' },
  { pattern: /reference, Part/i, instead: 'what it is, e.g. "Chaos Toolkit\'s http provider"' },
];

/** Checksums, not prose: their base64 can spell `D9`. */
const NOT_PROSE = /(?:^|\/)(?:package-lock\.json|go\.sum)$/;

/** `D7`, `D12`… as a word; `D-numbers` and `3D` are not citations. */
const CITATION = /(?<![\w-])D(\d+)(?!\w)/g;

interface Line {
  file: string;
  number: number;
  text: string;
}

function repositoryFiles(): string[] {
  const out = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  // A file deleted but not yet staged is still listed: skip it.
  return [...new Set(out.split('\0').filter(Boolean))].filter((file) => existsSync(join(ROOT, file)));
}

function textLines(file: string): Line[] {
  const content = readFileSync(join(ROOT, file));
  if (content.includes(0)) return []; // binary
  return content
    .toString('utf8')
    .split('\n')
    .map((text, i) => ({ file, number: i + 1, text }));
}

const files = repositoryFiles();
const lines = files.flatMap(textLines);
const where = (line: Line) => `${line.file}:${line.number}: ${line.text.trim().slice(0, 160)}`;

/** The decision numbers docs/decisions.md defines: a `### D<n>. …` heading with its anchor. */
function decisions(): { numbers: Set<number>; problems: string[] } {
  const doc = lines.filter((line) => line.file === DECISIONS);
  const anchors = new Set(
    doc.flatMap((line) => [...line.text.matchAll(/<a id="d(\d+)"><\/a>/g)].map((m) => Number(m[1]))),
  );
  const numbers = new Set<number>();
  const problems: string[] = [];
  for (const line of doc) {
    const heading = /^###\s+D(\d+)\.\s+\S/.exec(line.text);
    if (!heading) continue;
    const n = Number(heading[1]);
    if (numbers.has(n)) problems.push(`${where(line)}  (D${n} is defined twice)`);
    if (!anchors.has(n)) problems.push(`${where(line)}  (no <a id="d${n}"></a> anchor before it)`);
    numbers.add(n);
  }
  for (const line of doc) {
    for (const m of line.text.matchAll(/\]\(#d(\d+)\)/g)) {
      if (!numbers.has(Number(m[1])))
        problems.push(`${where(line)}  (links to #d${m[1]}, which is no entry)`);
    }
  }
  return { numbers, problems };
}

describe('the repository stands on its own', () => {
  it('reads the files', () => {
    expect(files).toContain(SELF);
    expect(files).toContain(DECISIONS);
  });

  it('points at nothing outside the repository', () => {
    const problems: string[] = [];
    for (const line of lines) {
      if (line.file === SELF) continue;
      const found = OUTSIDE.filter(({ pattern }) => pattern.test(line.text));
      if (found.length === 0) continue;
      const what = found.map(({ pattern }) => `'${line.text.match(pattern)?.[0]}'`).join(', ');
      const instead = [...new Set(found.map((f) => f.instead))].join('; or ');
      problems.push(`${where(line)}  (${what}: outside the repository; write ${instead})`);
    }
    expect(problems, `\n${problems.join('\n')}\n`).toEqual([]);
  });

  it('defines every decision once, with its anchor', () => {
    const { numbers, problems } = decisions();
    expect(numbers.size).toBeGreaterThanOrEqual(18);
    expect(problems, `\n${problems.join('\n')}\n`).toEqual([]);
  });

  it('cites only decisions that docs/decisions.md defines', () => {
    const { numbers } = decisions();
    const problems: string[] = [];
    for (const line of lines) {
      if (NOT_PROSE.test(line.file)) continue;
      for (const m of line.text.matchAll(CITATION)) {
        if (!numbers.has(Number(m[1]))) {
          problems.push(`${where(line)}  (D${m[1]} is no entry of ${DECISIONS})`);
        }
      }
    }
    expect(problems, `\n${problems.join('\n')}\n`).toEqual([]);
  });
});
