import { readFile } from 'node:fs/promises';

export interface AuditEvent {
  auditID: string;
  stage: string;
  verb: string;
  requestURI: string;
  user: { username: string; groups?: string[] };
  userAgent?: string;
  objectRef?: {
    resource?: string;
    namespace?: string;
    name?: string;
    apiGroup?: string;
    subresource?: string;
  };
  responseStatus?: { code?: number };
  requestReceivedTimestamp: string;
}

const MUTATING = new Set(['create', 'update', 'patch', 'delete', 'deletecollection']);

/** Events of the apiserver's JSON audit log, optionally only those of one user after a time. */
export async function readAuditLog(
  path: string,
  filter: { user?: string; since?: Date } = {},
): Promise<AuditEvent[]> {
  const text = await readFile(path, 'utf8').catch(() => '');
  // The apiserver appends while we read: a last line without its newline is still being written.
  const complete = text.slice(0, text.lastIndexOf('\n') + 1);
  return complete
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as AuditEvent)
    .filter((e) => e.stage === 'ResponseComplete')
    .filter((e) => !filter.user || e.user.username === filter.user)
    .filter((e) => !filter.since || new Date(e.requestReceivedTimestamp) >= filter.since);
}

// Asked with a `create` that stores nothing: who am I, may I (a run's checks before it starts).
const REVIEWS = new Set([
  'selfsubjectreviews',
  'selfsubjectaccessreviews',
  'selfsubjectrulesreviews',
  'subjectaccessreviews',
  'localsubjectaccessreviews',
  'tokenreviews',
]);

/**
 * Requests that could change the cluster (a server-side dry run included: the URI says so);
 * reviews (`create selfsubjectaccessreviews`…) are questions, not changes.
 */
export function isMutation(event: AuditEvent): boolean {
  return MUTATING.has(event.verb) && !REVIEWS.has(event.objectRef?.resource ?? '');
}

export function isDryRun(event: AuditEvent): boolean {
  return /[?&]dryRun=All\b/.test(event.requestURI);
}
