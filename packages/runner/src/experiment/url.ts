// Experiments from an http(s) URL, as Chaos Toolkit's `chaos run https://…` (D82): read with a
// bounded size and time, parsed by core's document reader like files are.

import { MAX_DOCUMENT_BYTES, registerSecret } from '@chaoskit/core/runner';
import { InvalidExperiment } from '../output/errors.js';

/** How long fetching an experiment may take, redirects included. */
export const URL_TIMEOUT_MS = 30_000;

export const isUrl = (source: string) => /^https?:\/\//i.test(source);

/** The URL as it may be shown: no credentials, no query (a token may be there). */
export function shownUrl(source: string): string {
  try {
    const url = new URL(source);
    return `${url.origin}${url.pathname}`;
  } catch {
    return source;
  }
}

/**
 * Fetches an experiment: its text and the format to read it as (JSON or YAML, from the content
 * type, else from the path's extension; text/plain is tried as JSON then YAML, as Chaos Toolkit
 * does). `CHAOSTOOLKIT_LOADER_AUTH_BEARER_TOKEN` is sent as a bearer token, as there.
 */
export async function fetchExperiment(
  source: string,
  debug: (line: string) => void = () => {},
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ text: string; format: 'json' | 'yaml' | 'either' }> {
  const url = new URL(source);
  const shown = shownUrl(source);
  registerSecret(decodeURIComponent(url.password));
  for (const value of url.searchParams.values()) registerSecret(value);
  const headers: Record<string, string> = { accept: 'application/json, application/x-yaml, text/yaml' };
  const token = env.CHAOSTOOLKIT_LOADER_AUTH_BEARER_TOKEN?.trim();
  if (token) {
    registerSecret(token);
    headers.authorization = `bearer ${token}`;
  }
  let response: Response;
  try {
    response = await fetch(url, { headers, redirect: 'follow', signal: AbortSignal.timeout(URL_TIMEOUT_MS) });
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    const reason =
      (err as Error).name === 'TimeoutError'
        ? `no answer within ${URL_TIMEOUT_MS / 1000} s`
        : (cause?.code ?? cause?.message ?? (err as Error).message);
    throw new InvalidExperiment(`${shown}: the experiment could not be fetched (${reason})`);
  }
  debug(`GET ${shown} ${response.status}`);
  if (response.status !== 200) {
    await response.body?.cancel();
    throw new InvalidExperiment(
      `${shown}: the experiment could not be fetched (the server answered ${response.status})`,
    );
  }
  const tooLarge = () =>
    new InvalidExperiment(`${shown}: the experiment is larger than ${MAX_DOCUMENT_BYTES} bytes`);
  if (Number(response.headers.get('content-length')) > MAX_DOCUMENT_BYTES) {
    await response.body?.cancel();
    throw tooLarge();
  }
  // Read up to the limit, whatever the server announced.
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body ?? []) {
    size += chunk.byteLength;
    if (size > MAX_DOCUMENT_BYTES) {
      await response.body?.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  const type = (response.headers.get('content-type') ?? '').toLowerCase();
  const path = new URL(response.url || source).pathname.toLowerCase();
  if (type.includes('text/html'))
    throw new InvalidExperiment(`${shown}: the server answered an HTML page, not an experiment`);
  if (type.includes('json')) return { text, format: 'json' };
  if (type.includes('yaml')) return { text, format: 'yaml' };
  if (path.endsWith('.json')) return { text, format: 'json' };
  if (path.endsWith('.yaml') || path.endsWith('.yml')) return { text, format: 'yaml' };
  return { text, format: 'either' };
}
