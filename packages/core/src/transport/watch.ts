// A watch of a kind's objects: the server's stream of changes, one JSON event a line.

import { toApiError } from '../errors/errors.js';
import type { Answer } from './http2.js';
import type { ListOptions } from './lists.js';
import type { RequestOptions } from './request.js';
import { collectionPath, type ResourceType, requestContext } from './resources.js';

export interface WatchEvent<T> {
  type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';
  object: T;
}

export type WatchOptions = ListOptions & { resourceVersion?: string; timeoutSeconds?: number };

/** How a watch opens its stream (the transport's `open`: its middleware). */
export type Open = (options: RequestOptions) => Promise<Answer>;

/**
 * Opens a watch and calls `onEvent` for each event, until the server ends it, the connection
 * breaks, or `stop()` is called. `done` tells which: `{ error }` for a broken connection or a
 * refused watch, `{ gone: true }` when the resourceVersion is too old (re-list, then re-watch).
 */
export function watch<T>(
  open: Open,
  outer: AbortSignal | undefined,
  t: ResourceType,
  options: WatchOptions,
  onEvent: (event: WatchEvent<T>) => void,
): { done: Promise<{ gone?: boolean; error?: unknown }>; stop: () => void } {
  const controller = new AbortController();
  const onAbort = () => controller.abort();
  outer?.addEventListener('abort', onAbort, { once: true });
  const done = (async (): Promise<{ gone?: boolean; error?: unknown }> => {
    let res: Answer;
    try {
      res = await open({
        method: 'GET',
        path: collectionPath(t, options.namespace),
        query: {
          watch: 'true',
          allowWatchBookmarks: 'true',
          labelSelector: options.labelSelector || undefined,
          fieldSelector: options.fieldSelector || undefined,
          resourceVersion: options.resourceVersion,
          timeoutSeconds: options.timeoutSeconds,
        },
        signal: controller.signal,
      });
    } catch (error) {
      return { error };
    }
    if ((res.statusCode ?? 0) >= 400) {
      let body = '';
      res.setEncoding('utf8');
      for await (const chunk of res) body += chunk;
      const error = toApiError(
        { code: res.statusCode, body },
        requestContext(t, 'watch', undefined, options.namespace),
      );
      return res.statusCode === 410 ? { gone: true } : { error };
    }
    let buffer = '';
    try {
      res.setEncoding('utf8');
      for await (const chunk of res) {
        buffer += chunk;
        for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
          const line = buffer.slice(0, nl).trim();
          buffer = buffer.slice(nl + 1);
          if (!line) continue;
          const event = JSON.parse(line) as WatchEvent<T>;
          if (event.type === 'ERROR') {
            const status = event.object as { code?: number };
            return status.code === 410
              ? { gone: true }
              : { error: toApiError({ code: status.code, body: status }) };
          }
          onEvent(event);
        }
      }
      return {};
    } catch (error) {
      return controller.signal.aborted ? {} : { error };
    } finally {
      outer?.removeEventListener('abort', onAbort);
    }
  })();
  return { done, stop: () => controller.abort() };
}
