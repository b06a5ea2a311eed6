// Plan mode speaks of what would happen. Activities log what they did, in the past tense, once
// for both modes ("terminated 2 pod(s): …"); in plan mode nothing happened, so every line an
// activity logs passes through here (buildContext) and its past tenses become conditionals.
// One place, so that a new activity, or a new line of an old one, reads right in a plan too.

/** The past tenses activities log their changes with, and the verb each is of. */
const VERBS: Record<string, string> = {
  applied: 'apply',
  cordoned: 'cordon',
  created: 'create',
  deleted: 'delete',
  drained: 'drain',
  evicted: 'evict',
  killed: 'kill',
  patched: 'patch',
  ran: 'run',
  removed: 'remove',
  replaced: 'replace',
  restarted: 'restart',
  scaled: 'scale',
  terminated: 'terminate',
  uncordoned: 'uncordon',
  updated: 'update',
};

const PAST = Object.keys(VERBS).join('|');
// "terminated 2 pod(s)" at the start of the line or of a clause: "would terminate 2 pod(s)".
const DID = new RegExp(`(^|[:;]\\s+)(${PAST})\\b`, 'g');
// "every node is cordoned", "nothing deleted", "3 pod(s) evicted": "… would be cordoned".
const DONE = new RegExp(`(\\b(?:is|are)|\\bnothing|\\b\\d+ \\S+) (${PAST})\\b`, 'g');

/**
 * The line as plan mode says it: "terminated 2 pod(s): a, b" → "would terminate 2 pod(s): a, b",
 * "nothing deleted" → "nothing would be deleted". A line that already speaks of what would
 * happen is left as it is.
 */
export function planWording(line: string): string {
  if (/\bwould\b/.test(line)) return line;
  return line
    .replace(DONE, (_, before: string, past: string) =>
      before === 'is' || before === 'are' ? `would be ${past}` : `${before} would be ${past}`,
    )
    .replace(DID, (_, before: string, past: string) => `${before}would ${VERBS[past]}`);
}
