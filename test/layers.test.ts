// The folders' order is the code's order: in core, runner and cluster, no import runs back up.
// At every level of a package's src/, its entries (folders and files) depend on each other
// through the imports of the files under them (type-only ones included, tests excluded); those
// dependencies must form no cycle. An import inside a cycle is one that runs back up: from a room
// into one that, through others, already depends on it.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const LAYERED = ['core', 'runner', 'cluster'];

interface Import {
  from: string;
  to: string;
  line: number;
}

const isSource = (file: string) => /\.(ts|mts|mjs)$/.test(file) && !/\.test\.|\.d\.ts$/.test(file);

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return isSource(name) ? [path] : [];
  });
}

/** The file a relative specifier names, as TypeScript's NodeNext resolution finds it. */
function resolveSpecifier(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(from), specifier);
  const candidates = [
    base.replace(/\.js$/, '.ts'),
    base.replace(/\.mjs$/, '.mts'),
    base,
    join(base, 'index.ts'),
  ];
  return candidates.find((c) => {
    try {
      return statSync(c).isFile();
    } catch {
      return false;
    }
  });
}

const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g;

function importsOf(file: string): Import[] {
  const text = readFileSync(file, 'utf8');
  const found: Import[] = [];
  for (const m of text.matchAll(SPECIFIER)) {
    const to = resolveSpecifier(file, m[1]!);
    if (to) found.push({ from: file, to, line: text.slice(0, m.index).split('\n').length });
  }
  return found;
}

/** The strongly connected components of a graph (Tarjan's algorithm). */
function components(nodes: readonly string[], edges: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  let index = 0;
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    order.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!order.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, order.get(w)!));
    }
    if (low.get(v) === order.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      out.push(component);
    }
  };
  for (const v of nodes) if (!order.has(v)) visit(v);
  return out;
}

/** The imports that run back up, at every level of `src`. */
function backImports(src: string): string[] {
  const all = sources(src).flatMap(importsOf);
  const problems: string[] = [];
  const levels = new Set([src, ...sources(src).map((f) => dirname(f))]);
  for (const dir of [...levels].filter((d) => d.startsWith(src))) {
    // Each import between two entries of `dir`, by the entry each file lies under.
    const entryOf = (file: string) => {
      const rel = relative(dir, file);
      return rel.startsWith('..') ? undefined : rel.split(sep)[0];
    };
    const between = all
      .map((i) => ({ ...i, a: entryOf(i.from), b: entryOf(i.to) }))
      .filter((i) => i.a && i.b && i.a !== i.b);
    const edges = new Map<string, Set<string>>();
    for (const { a, b } of between) {
      if (!edges.has(a!)) edges.set(a!, new Set());
      edges.get(a!)!.add(b!);
    }
    const nodes = [...new Set(between.flatMap((i) => [i.a!, i.b!]))];
    for (const cycle of components(nodes, edges).filter((c) => c.length > 1)) {
      const members = new Set(cycle);
      for (const i of between)
        if (members.has(i.a!) && members.has(i.b!))
          problems.push(
            `${relative(ROOT, i.from)}:${i.line} imports ${relative(ROOT, i.to)}  (${relative(ROOT, dir) || '.'}: ${cycle.sort().join(' ⇄ ')})`,
          );
    }
  }
  return [...new Set(problems)].sort();
}

describe('the folders are the layers', () => {
  for (const name of LAYERED) {
    it(`packages/${name}: no import runs back up`, () => {
      const problems = backImports(join(ROOT, 'packages', name, 'src'));
      expect(problems, `\n${problems.join('\n')}\n`).toEqual([]);
    });
  }
});

describe("core's write mark (D171)", () => {
  it('is named nowhere outside core: only core can write to a cluster', () => {
    const files = (dir: string): string[] =>
      readdirSync(dir).flatMap((name) => {
        const path = join(dir, name);
        if (name === 'node_modules' || name === 'dist') return [];
        if (statSync(path).isDirectory()) return files(path);
        return /\.(ts|mts|mjs|js)$/.test(name) ? [path] : [];
      });
    const outside = ['packages', 'scripts', 'test', 'examples']
      .flatMap((dir) => files(join(ROOT, dir)))
      .filter((path) => !path.startsWith(join(ROOT, 'packages', 'core', 'src')))
      .filter((path) => readFileSync(path, 'utf8').includes(['chaoskit', 'core', 'write'].join('.')));
    expect(outside.map((path) => relative(ROOT, path))).toEqual([]);
  });
});
