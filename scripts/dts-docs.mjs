#!/usr/bin/env node
// Post-build step of every activity package (its `build` script runs it after `tsc`): puts each
// activity's documentation into the emitted declaration files, so that an editor's hover on a
// camelCase export (`terminatePods`) and on each of its options shows the activity's `doc` and
// every argument's description, default and what it accepts.
//
// Nothing is written twice by hand: the text comes from the built package's `activities` (what
// `defineActivity` derived from the one definition), and the types stay the inferred ones. For
// `export declare const terminatePods: <inferred function type>;` tsc emitted, it writes
//
//   export interface TerminatePodsOptions extends CallOptions {
//       /** <description> … Default: `-1` … Accepts: an integer … */
//       gracePeriod?: NonNullable<Parameters<typeof terminatePodsActivity.fn>[0]>['gracePeriod'];
//       …
//   }
//   /** <doc> … Experiment activity: `chaoscluster.pod.actions.terminate_pods` (action) … */
//   export declare const terminatePods: (options?: TerminatePodsOptions) => <inferred return type>;
//
// and shifts the declaration map (.d.ts.map) to match, so go-to-definition still lands in the
// source. It runs inside the package's `build` task, so turbo caches its result with `dist/**`.
//
// Usage: node scripts/dts-docs.mjs [package directory]   (default: the current directory)

import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const MARKER = '// Documented from the activity definitions by scripts/dts-docs.mjs.';

class DtsDocsError extends Error {}

/** Rewrites the declaration files of one built activity package; returns what it did. */
export async function documentPackage(packageDir) {
  const dir = resolve(packageDir);
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const where = pkg.name ?? dir;
  const dist = join(dir, 'dist');
  const entry = join(dist, 'index.js');
  if (!existsSync(entry))
    throw new DtsDocsError(`${where}: ${relative(process.cwd(), entry)} is missing: build first`);
  const { activities } = await import(pathToFileURL(entry).href);
  if (!Array.isArray(activities) || activities.length === 0) {
    throw new DtsDocsError(`${where}: dist/index.js exports no 'activities'`);
  }

  const files = new Map(
    listDts(dist).map((file) => [file, { text: readFileSync(file, 'utf8'), statements: [] }]),
  );
  const alreadyDone = [...files.values()].filter((f) => f.text.startsWith(MARKER));
  if (alreadyDone.length > 0) {
    // tsc rewrites every declaration file on each build, so this is a second run on the same
    // output; the result would be the same.
    return { name: where, documented: 0, skipped: true };
  }

  for (const activity of activities) {
    const declaration = new RegExp(`^export declare const ${activity.camelName}:`, 'm');
    const found = [...files.entries()].filter(([, f]) => declaration.test(f.text));
    if (found.length !== 1) {
      throw new DtsDocsError(
        `${where}: ${activity.qualifiedName}: expected one declaration 'export declare const ${activity.camelName}:' in dist/**/*.d.ts, found ${found.length}`,
      );
    }
    const [[file, f]] = found;
    const activityVar = `${activity.camelName}Activity`;
    if (!new RegExp(`^export declare const ${activityVar}:`, 'm').test(f.text)) {
      throw new DtsDocsError(
        `${where}: ${activity.qualifiedName}: ${relative(dir, file)} declares ${activity.camelName} but not ${activityVar} (the camelCase export must be \`export const ${activity.camelName} = ${activityVar}.fn\`)`,
      );
    }
    const optionsName = `${pascal(activity.camelName)}Options`;
    for (const [other, o] of files) {
      if (new RegExp(`\\b${optionsName}\\b`).test(o.text)) {
        throw new DtsDocsError(`${where}: ${relative(dir, other)} already uses the name ${optionsName}`);
      }
    }
    f.statements.push({ activity, activityVar, optionsName });
  }

  let documented = 0;
  for (const [file, f] of files) {
    if (f.statements.length === 0) continue;
    if (/\bCallOptions\b/.test(f.text)) {
      throw new DtsDocsError(`${where}: ${relative(dir, file)} already uses the name CallOptions`);
    }
    const mapFile = `${file}.map`;
    const map = existsSync(mapFile) ? JSON.parse(readFileSync(mapFile, 'utf8')) : undefined;
    const result = rewrite(f.text, f.statements, map, where);
    writeFileSync(file, result.text);
    if (map) writeFileSync(mapFile, JSON.stringify(result.map));
    documented += f.statements.length;
  }
  return { name: where, documented, skipped: false };
}

function listDts(dir) {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.d.ts'))
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

// ---------------------------------------------------------------------------------------------
// Rewriting one declaration file
// ---------------------------------------------------------------------------------------------

function rewrite(text, statements, map, where) {
  // Work on lines so the declaration map can follow: each output line says which input line
  // (or which statement's first line) it comes from.
  const lines = text.split('\n');
  const lineStarts = [];
  let offset = 0;
  for (const line of lines) {
    lineStarts.push(offset);
    offset += line.length + 1;
  }
  const lineAt = (index) => {
    let line = 0;
    while (line + 1 < lineStarts.length && lineStarts[line + 1] <= index) line++;
    return line;
  };

  const replacements = statements
    .map((s) => {
      const head = `export declare const ${s.activity.camelName}:`;
      const start = text.search(new RegExp(`^${escapeRegExp(head)}`, 'm'));
      const end = statementEnd(text, start + head.length, where, s.activity.qualifiedName);
      const typeText = text.slice(start + head.length, end).trim();
      const firstLine = lineAt(start);
      const lastLine = lineAt(end);
      if (
        lineStarts[firstLine] !== start ||
        text.slice(end + 1, lineStarts[lastLine + 1] ?? text.length).trim()
      ) {
        throw new DtsDocsError(`${where}: ${s.activity.qualifiedName}: unexpected layout of its declaration`);
      }
      return { ...s, firstLine, lastLine, nameColumn: 'export declare const '.length, typeText };
    })
    .sort((a, b) => a.firstLine - b.firstLine);

  // Output lines, each with its origin: { from: inputLine } or { statement, keepPrefix }.
  const out = [
    { text: MARKER, origin: null },
    { text: "import type { CallOptions } from '@chaoskit/core';", origin: null },
  ];
  let next = 0;
  for (const r of replacements) {
    for (; next < r.firstLine; next++) out.push({ text: lines[next], origin: { line: next } });
    for (const generated of generate(r)) out.push({ text: generated, origin: { statement: r.firstLine } });
    out.push({
      text: `export declare const ${r.activity.camelName}: ${functionType(r)};`,
      origin: { statement: r.firstLine, prefix: r.nameColumn + r.activity.camelName.length },
    });
    next = r.lastLine + 1;
  }
  for (; next < lines.length; next++) out.push({ text: lines[next], origin: { line: next } });

  return { text: out.map((l) => l.text).join('\n'), map: map && remap(map, out) };
}

/** The index of the `;` that ends the statement whose type starts at `from`. */
function statementEnd(text, from, where, name) {
  let depth = 0;
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (c === '"' || c === "'" || c === '`') {
      i = stringEnd(text, i);
    } else if (c === '(' || c === '{' || c === '[') depth++;
    else if (c === ')' || c === '}' || c === ']') depth--;
    else if (c === ';' && depth === 0) return i;
  }
  throw new DtsDocsError(`${where}: ${name}: cannot find the end of its declaration`);
}

function stringEnd(text, start) {
  const quote = text[start];
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === quote) return i;
  }
  return text.length;
}

/** `(options?: XOptions) => <the inferred return type>` */
function functionType(r) {
  const required = r.activity.arguments.some((a) => a.required);
  const params = `options${required ? '' : '?'}: ${r.optionsName}`;
  return `(${params}) => ${returnType(r)}`;
}

// tsc prints the camelCase export as `(options…) => Promise<…>`: keep its return type as it
// printed it (readable in a hover); otherwise (another printer) ask for it by reference.
function returnType(r) {
  const t = r.typeText;
  if (t.startsWith('(')) {
    let depth = 0;
    for (let i = 0; i < t.length; i++) {
      const c = t[i];
      if (c === '"' || c === "'" || c === '`') i = stringEnd(t, i);
      else if (c === '(' || c === '{' || c === '[') depth++;
      else if (c === ')' || c === '}' || c === ']') {
        depth--;
        if (depth === 0) {
          const rest = t.slice(i + 1).trimStart();
          if (rest.startsWith('=>')) return rest.slice(2).trim();
          break;
        }
      }
    }
  }
  return `ReturnType<typeof ${r.activityVar}.fn>`;
}

function generate(r) {
  const { activity, activityVar, optionsName } = r;
  const inferred = `NonNullable<Parameters<typeof ${activityVar}.fn>[0]>`;
  const lines = [];
  lines.push(
    ...jsdoc(
      [
        `Options of {@link ${activity.camelName}} (\`${activity.qualifiedName}\`): its arguments, in camelCase, and what every activity accepts ({@link CallOptions}).`,
      ],
      '',
    ),
  );
  lines.push(`export interface ${optionsName} extends CallOptions {`);
  for (const arg of activity.arguments) {
    const paragraphs = [arg.description ?? ''];
    if ('default' in arg) paragraphs.push(`Default: ${code(renderDefault(arg.default))}.`);
    paragraphs.push(`Accepts: ${arg.accepted}.`);
    paragraphs.push(`Experiment argument: ${code(arg.name)}.`);
    lines.push(...jsdoc(paragraphs, '    '));
    lines.push(`    ${arg.camelName}${arg.required ? '' : '?'}: ${inferred}['${arg.camelName}'];`);
  }
  lines.push('}');
  const paragraphs = [
    activity.doc,
    `Experiment activity: ${code(activity.qualifiedName)} (${activity.kind}). Options: {@link ${optionsName}}.`,
  ];
  const tags = [];
  if (activity.deprecated) {
    tags.push(`@deprecated${activity.deprecationNote ? ` Use instead: ${activity.deprecationNote}.` : ''}`);
  }
  lines.push(...jsdoc(paragraphs, '', tags));
  return lines;
}

// Strings as the accepted text quotes them ('fixed'), anything else as JSON.
function renderDefault(value) {
  if (value === undefined) return 'undefined';
  if (typeof value === 'string') return `'${value.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
  return JSON.stringify(value);
}

function code(text) {
  const fence = text.includes('`') ? '``' : '`';
  return `${fence}${text.includes('`') ? ` ${text} ` : text}${fence}`;
}

/** A JSDoc block: paragraphs separated by an empty line, then tags. */
function jsdoc(paragraphs, indent, tags = []) {
  const body = [];
  for (const paragraph of paragraphs.filter((p) => p.trim() !== '')) {
    if (body.length) body.push('');
    body.push(...paragraph.trim().split('\n'));
  }
  for (const line of body) {
    // A line starting with @ would be read as a tag.
    if (/^\s*@/.test(line)) throw new DtsDocsError(`a documentation line starts with '@': ${line}`);
  }
  body.push(...tags);
  return [
    `${indent}/**`,
    ...body.map((line) => `${indent} *${line ? ` ${line.replaceAll('*/', '*\\/')}` : ''}`),
    `${indent} */`,
  ];
}

function pascal(name) {
  return name.charAt(0).toUpperCase() + name.slice(1);
}

function escapeRegExp(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

// ---------------------------------------------------------------------------------------------
// Declaration maps
// ---------------------------------------------------------------------------------------------

// Lines kept keep their segments; a rewritten declaration keeps the segments of its first line
// up to the end of its name (go-to-definition on the name lands on the source's name), and every
// generated line (documentation, the options interface) maps to the start of the source
// statement.
function remap(map, out) {
  const decoded = decodeMappings(map.mappings);
  const lines = out.map(({ origin }) => {
    if (!origin) return [];
    if ('line' in origin) return decoded[origin.line] ?? [];
    const first = decoded[origin.statement] ?? [];
    if (origin.prefix !== undefined) return first.filter((segment) => segment[0] <= origin.prefix);
    return first.length ? [[0, ...first[0].slice(1, 4)]] : [];
  });
  return { ...map, mappings: encodeMappings(lines) };
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

function decodeMappings(mappings) {
  const state = [0, 0, 0, 0, 0];
  return mappings.split(';').map((line) => {
    state[0] = 0;
    if (!line) return [];
    return line.split(',').map((segment) => {
      const values = decodeVlq(segment);
      const absolute = values.map((v, i) => {
        state[i] += v;
        return state[i];
      });
      return absolute;
    });
  });
}

function encodeMappings(lines) {
  const state = [0, 0, 0, 0, 0];
  return lines
    .map((segments) => {
      state[0] = 0;
      return segments
        .map((segment) =>
          segment
            .map((value, i) => {
              const delta = value - state[i];
              state[i] = value;
              return encodeVlq(delta);
            })
            .join(''),
        )
        .join(',');
    })
    .join(';');
}

function decodeVlq(segment) {
  const values = [];
  let value = 0;
  let shift = 0;
  for (const char of segment) {
    const digit = BASE64.indexOf(char);
    if (digit < 0) throw new DtsDocsError(`bad source map segment '${segment}'`);
    value += (digit & 31) << shift;
    if (digit & 32) shift += 5;
    else {
      values.push(value & 1 ? -(value >>> 1) : value >>> 1);
      value = 0;
      shift = 0;
    }
  }
  return values;
}

function encodeVlq(number) {
  let value = number < 0 ? (-number << 1) | 1 : number << 1;
  let text = '';
  do {
    let digit = value & 31;
    value >>>= 5;
    if (value > 0) digit |= 32;
    text += BASE64[digit];
  } while (value > 0);
  return text;
}

// ---------------------------------------------------------------------------------------------

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    const result = await documentPackage(process.argv[2] ?? process.cwd());
    if (!result.skipped) console.log(`dts-docs: ${result.name}: ${result.documented} activities documented`);
  } catch (err) {
    if (!(err instanceof DtsDocsError)) throw err;
    console.error(`dts-docs: ${err.message}`);
    process.exit(1);
  }
}
