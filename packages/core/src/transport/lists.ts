// Lists and counts of a kind's objects: page after page (each next page asked for as soon as
// its token arrives), filtered on the server, read again from the start when a page expires.

import { ActivityFailed, toApiError } from '../errors/errors.js';
import { withoutManagedFields } from './managed-fields.js';
import type { Query, RawResponse, RequestOptions } from './request.js';
import { collectionPath, type ResourceType, requestContext } from './resources.js';

/** How a list sends one request (the transport's `send`: its signal, its middleware). */
export type Send = (options: RequestOptions) => Promise<RawResponse>;

export interface Page<T> {
  items: T[];
  metadata?: { _continue?: string; resourceVersion?: string };
}

export interface ListOptions {
  namespace?: string | null;
  labelSelector?: string | null;
  fieldSelector?: string | null;
  /** Items per page (default 500). */
  limit?: number;
  /**
   * Only each object's metadata (a `PartialObjectMetadataList`): for names, labels and owners,
   * a fraction of the bytes of whole objects. Their managedFields are cut from each page before
   * it is parsed: they are most of a pod's metadata, and a list of 100,000 pods is held until
   * chosen from.
   */
  metadataOnly?: boolean;
  /**
   * With `metadataOnly`: each item kept as `{ metadata }` with these members of its metadata
   * only, as its page is read (a choice among 100,000 pods needs their names, not their labels).
   */
  metadataFields?: readonly string[];
  /**
   * The list as of this resourceVersion or later (another list's, to agree with it): served from
   * the apiserver's cache, where an exact version would be read again from etcd.
   */
  resourceVersion?: string;
}

/** What `count` counts: the objects of a namespace (or all), filtered on the server. */
export type CountOptions = Pick<
  ListOptions,
  'namespace' | 'labelSelector' | 'fieldSelector' | 'resourceVersion'
>;

const METADATA_ONLY = 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json';
// The server's table of a list without the objects: a row is a few hundred bytes, where a pod's
// metadata alone is kilobytes (managedFields).
const TABLE = 'application/json;as=Table;g=meta.k8s.io;v=v1,application/json';

// A list's metadata (and so its continue token) comes before its items: the next page can be
// asked for before this one is parsed.
const CONTINUE_TOKEN = /^\{[^[]*?"continue":"([^"]+)"/;

/** A list as of `resourceVersion` or later (from the apiserver's cache); none: the latest. */
function versionQuery(resourceVersion: string | undefined): Query {
  return resourceVersion ? { resourceVersion, resourceVersionMatch: 'NotOlderThan' } : {};
}

/** How many times a list whose next page expired (410 Gone) is started again from its first page. */
export const LIST_RESTARTS = 3;

/** A next page refused with 410 Gone: the list as read so far is not one consistent list. */
class ListExpired extends Error {
  constructor(cause: unknown) {
    super('the list expired', { cause });
  }
}

const describeList = (t: ResourceType, options: ListOptions) =>
  `list ${t.plural}${t.namespaced && options.namespace ? ` in namespace '${options.namespace}'` : ''}`;

function pageOf<T>(body: string): Page<T> {
  const page = JSON.parse(body) as {
    items?: T[];
    metadata?: { continue?: string; resourceVersion?: string };
  };
  return {
    items: page.items ?? [],
    metadata: {
      ...(page.metadata?.continue ? { _continue: page.metadata.continue } : {}),
      ...(page.metadata?.resourceVersion ? { resourceVersion: page.metadata.resourceVersion } : {}),
    },
  };
}

/** The error of a list's answer the server refused. */
const listError = (res: RawResponse, t: ResourceType, namespace?: string | null) =>
  toApiError(
    { code: res.status, body: res.body, headers: res.headers },
    requestContext(t, 'list', undefined, namespace),
  );

async function json<T>(send: Send, options: RequestOptions, t: ResourceType, namespace?: string | null) {
  const res = await send(options);
  if (res.status >= 400) throw listError(res, t, namespace);
  return JSON.parse(res.body) as T;
}

/**
 * How many objects match: without a selector the server counts (one item asked for, the rest
 * in remainingItemCount); with one, the rows of the server's table of them, in one response,
 * counted as it arrives and never kept: a table of 100,000 pods is 25 MB of JSON, several times
 * that once parsed.
 */
export async function count(send: Send, t: ResourceType, options: CountOptions = {}): Promise<number> {
  const path = collectionPath(t, options.namespace);
  if (!options.labelSelector && !options.fieldSelector) {
    const page = await json<{
      items?: unknown[];
      metadata?: { continue?: string; remainingItemCount?: number };
    }>(send, { method: 'GET', path, query: { limit: 1 } }, t, options.namespace);
    const first = page.items?.length ?? 0;
    if (!page.metadata?.continue) return first;
    if (typeof page.metadata.remainingItemCount === 'number') return first + page.metadata.remainingItemCount;
  }
  let rows = 0;
  const res = await send({
    method: 'GET',
    path,
    accept: TABLE,
    query: {
      includeObject: 'None',
      labelSelector: options.labelSelector || undefined,
      fieldSelector: options.fieldSelector || undefined,
      ...versionQuery(options.resourceVersion),
    },
    read: () => {
      const counter = memberLength('rows');
      return (chunk) => {
        rows = counter(chunk);
      };
    },
  });
  if (res.status >= 400) throw listError(res, t, options.namespace);
  return rows;
}

/**
 * How many objects (or arrays) an array member of a JSON object holds, read in chunks without
 * parsing: each chunk given returns the count so far. It follows strings (and their escapes)
 * and depth only, so a table's rows are counted whatever their cells hold.
 */
export function memberLength(member: string): (chunk: string) => number {
  let depth = 0;
  let inString = false;
  let escaped = false;
  /** The text of the string read last, at the object's own level (its keys); else unused. */
  let text = '';
  let key = '';
  let inMember = false;
  let length = 0;
  return (chunk) => {
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i];
      if (inString) {
        if (escaped) escaped = false;
        else if (c === '\\') escaped = true;
        else if (c === '"') inString = false;
        else if (depth === 1) text += c;
        continue;
      }
      switch (c) {
        case '"':
          inString = true;
          text = '';
          break;
        case ':':
          if (depth === 1) key = text;
          break;
        case '{':
        case '[':
          if (depth === 1 && c === '[') inMember = key === member;
          else if (depth === 2 && inMember) length++;
          depth++;
          break;
        case '}':
        case ']':
          depth--;
          if (depth === 1) inMember = false;
          break;
      }
    }
    return length;
  };
}

function pick(from: Record<string, unknown>, fields: readonly string[]): Record<string, unknown> {
  const picked: Record<string, unknown> = {};
  for (const field of fields) if (from[field] !== undefined) picked[field] = from[field];
  return picked;
}

/** The raw answer of one page of a list: its body is parsed by the caller. */
async function sendPage(
  send: Send,
  t: ResourceType,
  options: ListOptions & { continue?: string },
): Promise<string> {
  const res = await send({
    method: 'GET',
    path: collectionPath(t, options.namespace),
    query: {
      limit: options.limit ?? 500,
      labelSelector: options.labelSelector || undefined,
      fieldSelector: options.fieldSelector || undefined,
      continue: options.continue,
      ...(options.continue ? {} : versionQuery(options.resourceVersion)),
    },
    ...(options.metadataOnly ? { accept: METADATA_ONLY } : {}),
  });
  if (res.status >= 400) {
    const error = listError(res, t, options.namespace);
    throw res.status === 410 && options.continue ? new ListExpired(error) : error;
  }
  return res.body;
}

/** One page of a list (items as the API sends them). */
export async function listPage<T>(
  send: Send,
  t: ResourceType,
  options: ListOptions & { continue?: string },
): Promise<Page<T>> {
  return pageOf<T>(await sendPage(send, t, options));
}

/**
 * Every item, page after page, with the resourceVersion the list was read at (to read another
 * list as of it). A next page refused with 410 Gone (its continue token is older than etcd's
 * compaction) starts the list again from its first page, up to LIST_RESTARTS times: the pages
 * read so far are never returned, as they are not one list.
 */
export async function listWithVersion<T>(
  send: Send,
  t: ResourceType,
  options: ListOptions = {},
): Promise<{ items: T[]; resourceVersion?: string }> {
  for (let restarts = 0; ; restarts++) {
    try {
      return await readList<T>(send, t, options);
    } catch (err) {
      if (!(err instanceof ListExpired)) throw err;
      if (restarts === LIST_RESTARTS)
        throw new ActivityFailed(
          `${describeList(t, options)}: the list expired ${restarts + 1} times while its pages were read (410 Gone: the cluster compacted its history before the next page); nothing was done with the pages read`,
          { cause: err.cause },
        );
    }
  }
}

async function readList<T>(
  send: Send,
  t: ResourceType,
  options: ListOptions,
): Promise<{ items: T[]; resourceVersion?: string }> {
  const items: T[] = [];
  let resourceVersion: string | undefined;
  let next: Promise<string> | undefined = sendPage(send, t, options);
  while (next) {
    const body: string = await next;
    const token = CONTINUE_TOKEN.exec(body)?.[1];
    next = token ? sendPage(send, t, { ...options, continue: token }) : undefined;
    const page = pageOf<T>(options.metadataOnly ? withoutManagedFields(body) : body);
    // A server that writes its metadata after the items: the token is known once parsed.
    const late = page.metadata?._continue;
    if (!token && late) next = sendPage(send, t, { ...options, continue: late });
    resourceVersion ??= page.metadata?.resourceVersion;
    const fields = options.metadataOnly ? options.metadataFields : undefined;
    for (const item of page.items) {
      const metadata = (item as { metadata?: Record<string, unknown> }).metadata;
      if (fields) items.push({ metadata: pick(metadata ?? {}, fields) } as T);
      else {
        // A server that writes managedFields otherwise than withoutManagedFields knows.
        if (options.metadataOnly) delete metadata?.managedFields;
        items.push(item);
      }
    }
  }
  return resourceVersion ? { items, resourceVersion } : { items };
}
