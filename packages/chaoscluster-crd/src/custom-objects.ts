// The requests of the crd activities, over core's client (`ctx.kube`): one object of one
// resource, on the namespaced paths or the cluster-wide ones. The client makes every mutation a
// server-side dry run in plan mode, and retries reads.

import { collectionPath, type KubeClient, type Query, type ResourceType } from '@chaoskit/core';
import type { CustomObject } from './body.js';
import { resourceType, type Target } from './target.js';

/** The field manager of chaoskit's server-side applies (patch_*custom_object, D7). */
export const FIELD_MANAGER = 'chaoskit';

/** A page of a list, as the server sends it (the JSON, not a typed model). */
export interface ObjectList<T = unknown> {
  apiVersion?: string;
  kind?: string;
  metadata?: { continue?: string; resourceVersion?: string; remainingItemCount?: number };
  items?: T[];
  [key: string]: unknown;
}

/** The whole list of custom objects, every page merged: `items` is always there. */
export interface CustomObjectList extends ObjectList<CustomObject> {
  items: CustomObject[];
}

/** The Status the server answers a delete with once the object is gone (`metav1.Status`, as JSON). */
export interface Status {
  apiVersion: string;
  kind: 'Status';
  metadata?: { resourceVersion?: string; [key: string]: unknown };
  status?: 'Success' | 'Failure';
  message?: string;
  reason?: string;
  code?: number;
  details?: { name?: string; group?: string; kind?: string; uid?: string; [key: string]: unknown };
  [key: string]: unknown;
}

/** Pages of one list merged into the list object a single request would have returned. */
export function mergeListPages<T>(pages: readonly ObjectList<T>[]): ObjectList<T> & { items: T[] } {
  const [first] = pages;
  if (!first) return { items: [] };
  const { continue: _continue, remainingItemCount: _remaining, ...metadata } = first.metadata ?? {};
  return { ...first, metadata, items: pages.flatMap((page) => page.items ?? []) };
}

const LIST_PAGE = 500;

// The server refuses a field the definition's schema does not have, instead of dropping it.
const STRICT: Query = { fieldValidation: 'Strict' };

/** The objects of one resource, namespaced when the target has a namespace. */
export class CustomObjects {
  readonly type: ResourceType;

  constructor(
    readonly kube: KubeClient,
    readonly target: Target,
  ) {
    this.type = resourceType(target);
  }

  private get namespace() {
    return this.target.namespace ?? null;
  }

  create(body: CustomObject): Promise<CustomObject> {
    return this.kube.create<CustomObject>(this.type, body, { namespace: this.namespace, query: STRICT });
  }

  get(name: string): Promise<CustomObject> {
    return this.kube.get<CustomObject>(this.type, name, this.namespace);
  }

  /**
   * Every object, page by page (each page with retries), as one list object: the list's own
   * apiVersion, kind and metadata are part of the result, so the pages are read whole.
   */
  async list(): Promise<CustomObjectList> {
    const path = collectionPath(this.type, this.namespace);
    const context = { verb: 'list', resource: this.type.noun };
    const pages: ObjectList<CustomObject>[] = [];
    let token: string | undefined;
    do {
      const query: Query = { limit: LIST_PAGE, continue: token };
      const page = await this.kube.request<ObjectList<CustomObject>>({ method: 'GET', path, query }, context);
      pages.push(page);
      token = page.metadata?.continue || undefined;
    } while (token);
    return mergeListPages(pages);
  }

  /** What the server returns: a Status, or the object while finalizers hold it. */
  delete(name: string): Promise<Status | CustomObject> {
    return this.kube.delete<Status | CustomObject>(this.type, name, { namespace: this.namespace });
  }

  /** A server-side apply by the field manager `chaoskit`; `force` takes over others' fields. */
  apply(name: string, body: CustomObject, force: boolean): Promise<CustomObject> {
    return this.kube.patch<CustomObject>(this.type, name, body, 'apply', {
      namespace: this.namespace,
      query: { ...STRICT, fieldManager: FIELD_MANAGER, ...(force ? { force: true } : {}) },
    });
  }

  /** A PUT of the whole object, guarded by the resourceVersion it carries. */
  replace(name: string, body: CustomObject): Promise<CustomObject> {
    return this.kube.replace<CustomObject>(this.type, name, body, {
      namespace: this.namespace,
      query: STRICT,
    });
  }
}
