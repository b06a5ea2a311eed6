import { open, readFile, stat } from 'node:fs/promises';

export interface AuditEvent {
  auditID: string;
  stage: string;
  verb: string;
  requestURI: string;
  user: { username: string; groups?: string[] };
  /** Whom the request acted as (impersonation headers), judged as theirs. */
  impersonatedUser?: { username: string; groups?: string[] };
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

const NEWLINE = 0x0a;
const MUTATING = new Set(['create', 'update', 'patch', 'delete', 'deletecollection']);

/**
 * Events of the apiserver's JSON audit log, optionally only those of one user after a time, or
 * written after byte `fromByte` (an `auditLogSize` taken earlier: only what came since is read).
 */
export async function readAuditLog(
  path: string,
  filter: { user?: string; since?: Date; fromByte?: number } = {},
): Promise<AuditEvent[]> {
  const log = await (filter.fromByte ? readFrom(path, filter.fromByte) : readFile(path)).catch(() =>
    Buffer.alloc(0),
  );
  // The apiserver appends while we read: a last line without its newline is still being written.
  const complete = log.subarray(0, log.lastIndexOf(NEWLINE) + 1);
  return linesOf(complete, filter.user)
    .map((line) => JSON.parse(line) as AuditEvent)
    .filter((e) => e.stage === 'ResponseComplete')
    .filter((e) => !filter.user || e.user.username === filter.user)
    .filter((e) => !filter.since || new Date(e.requestReceivedTimestamp) >= filter.since);
}

/** How long the audit log is now, in bytes (0 while there is none). */
export async function auditLogSize(path: string): Promise<number> {
  return (await stat(path).catch(() => ({ size: 0 }))).size;
}

/**
 * The log from `offset` on, whole lines only: the size may have been taken while the apiserver
 * was halfway through a line, whose rest (an event from before) is left out.
 */
async function readFrom(path: string, offset: number): Promise<Buffer> {
  const file = await open(path, 'r');
  try {
    const start = offset - 1;
    const length = Math.max(0, (await file.stat()).size - start);
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await file.read(buffer, 0, length, start);
    return buffer.subarray(buffer.indexOf(NEWLINE) + 1, bytesRead);
  } finally {
    await file.close();
  }
}

/**
 * The lines worth parsing. A shared cluster's log grows to tens of megabytes in a test run, and
 * parsing all of it to find one user's few events made each "the refused call sent no request"
 * check cost about a second; a user's events hold the name as the apiserver writes it, so only
 * those lines are parsed. Names JSON might write another way (HTML-escaped, non-ASCII) are looked
 * for the slow way.
 */
function linesOf(log: Buffer, user?: string): string[] {
  if (!user || !/^[\x20-\x7e]*$/.test(user) || /[<>&"\\]/.test(user))
    return log.toString('utf8').split('\n').filter(Boolean);
  const needle = `"username":${JSON.stringify(user)}`;
  const lines: string[] = [];
  for (let at = log.indexOf(needle); at !== -1; ) {
    const end = log.indexOf(NEWLINE, at);
    lines.push(log.toString('utf8', log.lastIndexOf(NEWLINE, at) + 1, end));
    at = log.indexOf(needle, end);
  }
  return lines;
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
