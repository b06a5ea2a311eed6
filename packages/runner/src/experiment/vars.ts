import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { parseDocument } from '@chaoskit/core';
import type { Json } from './raw.js';

export interface Vars {
  /** `--var` and the `configuration` of `--var-file`s. */
  configuration?: Json;
  /** The `secrets` of `--var-file`s: whole groups that replace the experiment's. */
  secrets?: Record<string, Json>;
}

/**
 * `--var key[:type]=value` (types: str, int, float, bool, json, and bytes: the text, which is
 * its UTF-8 bytes; D162), as Chaos Toolkit's.
 */
export function parseVar(text: string): [string, unknown] {
  const match =
    /^([A-Za-z_][A-Za-z0-9_]*)(?::(str|string|bytes|int|integer|float|number|bool|boolean|json))?=(.*)$/s.exec(
      text,
    );
  if (!match)
    throw new Error(
      `--var takes key[:type]=value (types: str, int, float, bool, json, bytes), got '${text}'`,
    );
  const [, key, type = 'str', raw = ''] = match;
  switch (type) {
    case 'int':
    case 'integer': {
      if (!/^-?\d+$/.test(raw)) throw new Error(`--var ${key}: '${raw}' is not an integer`);
      return [key!, Number.parseInt(raw, 10)];
    }
    case 'float':
    case 'number': {
      const n = Number(raw);
      if (raw.trim() === '' || Number.isNaN(n)) throw new Error(`--var ${key}: '${raw}' is not a number`);
      return [key!, n];
    }
    case 'bool':
    case 'boolean':
      return [key!, !['false', '0', 'no', ''].includes(raw.toLowerCase())];
    case 'json':
      try {
        return [key!, JSON.parse(raw)];
      } catch {
        throw new Error(`--var ${key}: '${raw}' is not JSON`);
      }
    default:
      return [key!, raw];
  }
}

/**
 * `--var-file`: a .json/.yaml/.yml file with `configuration` and/or `secrets`, or a .env file
 * whose KEY=VALUE lines are added to the environment. Later files override earlier ones.
 */
export async function loadVarFiles(paths: string[], env: NodeJS.ProcessEnv): Promise<Vars> {
  const vars: Required<Vars> = { configuration: {}, secrets: {} };
  for (const path of paths) {
    const text = await readFile(path, 'utf8');
    if (['.json', '.yaml', '.yml'].includes(extname(path).toLowerCase())) {
      const doc = parseDocument(text, extname(path).toLowerCase() === '.json' ? 'json' : 'yaml') as {
        configuration?: Json;
        secrets?: Record<string, Json>;
      } | null;
      Object.assign(vars.configuration, doc?.configuration ?? {});
      Object.assign(vars.secrets, doc?.secrets ?? {});
    } else {
      for (const line of text.split('\n')) {
        const m = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/.exec(line);
        if (m && !line.trim().startsWith('#')) env[m[1]!] = m[2]!.replace(/^(['"])(.*)\1$/, '$2');
      }
    }
  }
  return vars;
}
