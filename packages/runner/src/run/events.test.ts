import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Json, prepareExperiment } from '../experiment.js';
import { type Journal, journalWriter, logEvents, type RunEvent, runExperiment } from './index.js';

// What a run says as it goes, heard as its listeners hear it: a real run (processes as the
// system), interrupted in the middle of its method as Ctrl-C interrupts `chaoskit run` (the
// run's signal aborted).
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'chaoskit-events-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const sh = (name: string, script: string, type: 'probe' | 'action' = 'action', extra: Json = {}) => ({
  type,
  name,
  provider: { type: 'process', path: 'sh', arguments: ['-c', script] },
  ...extra,
});

/** Waits until `path` exists (the process got there). */
async function until(path: string): Promise<void> {
  while (!existsSync(path)) await delay(20);
}

/** An event as the sequence shows it: its type, and what it is about. */
function said(event: RunEvent): string {
  switch (event.type) {
    case 'phase-started':
    case 'phase-ended':
      return `${event.type} ${event.phase === 'hypothesis' ? `hypothesis ${event.when}` : event.phase}`;
    case 'activity-started':
    case 'activity-ended':
    case 'activity-called':
      return `${event.type} ${event.phase} ${event.activity?.name}`;
    case 'activity-returned':
      return `${event.type} ${event.phase} ${event.run.activity.name} ${event.run.status}`;
    case 'interrupted':
      return `${event.type} by ${event.by}`;
    case 'journal-written':
      return `${event.type}${event.final ? ' final' : ''}`;
    case 'run-ended':
      return `${event.type} ${event.journal.status}`;
    default:
      return event.type;
  }
}

describe('run events', () => {
  it('of a run whose method is interrupted: the activity stops, the rollbacks play, the journal follows', async () => {
    const started = join(dir, 'started');
    const pidFile = join(dir, 'pid');
    const prepared = await prepareExperiment({
      title: 'interrupted',
      description: 'the method is interrupted while its first action runs',
      'steady-state-hypothesis': {
        title: 'all is well',
        probes: [sh('well', 'true', 'probe', { tolerance: 0 })],
      },
      method: [
        // `$$$$`: `$$` once substituted (Chaos Toolkit's escape), the shell's pid.
        sh('sleeper', `echo $$$$ > ${pidFile}; touch ${started}; exec sleep 600`),
        sh('never', `touch ${join(dir, 'never')}`),
      ],
      rollbacks: [sh('restore', 'true')],
    });
    const events: RunEvent[] = [];
    const lines: string[] = [];
    const written: string[] = [];
    const journalFile = journalWriter(async (text) => {
      written.push(text);
    });
    const interrupt = new AbortController();
    const run = runExperiment(prepared, {
      signal: interrupt.signal,
      listeners: [
        (event) => {
          events.push(event);
        },
        logEvents({ info: (line) => lines.push(line), warn: (line) => lines.push(`WARN ${line}`) }),
        journalFile.listener,
      ],
    });
    await until(started);
    interrupt.abort(new Error('interrupted by SIGINT'));
    const journal: Journal = await run;

    expect(events.map(said)).toEqual([
      'run-started',
      'phase-started hypothesis before',
      'activity-started hypothesis well',
      'activity-called hypothesis well',
      'activity-returned hypothesis well succeeded',
      'journal-written',
      'activity-ended hypothesis well',
      'phase-ended hypothesis before',
      'phase-started method',
      'activity-started method sleeper',
      'activity-called method sleeper',
      'activity-returned method sleeper failed',
      'journal-written',
      'activity-ended method sleeper',
      'phase-ended method',
      'interrupted by signal',
      'phase-started rollbacks',
      'activity-started rollbacks restore',
      'activity-called rollbacks restore',
      'activity-returned rollbacks restore succeeded',
      'journal-written',
      'activity-ended rollbacks restore',
      'phase-ended rollbacks',
      'run-ended interrupted',
      'journal-written final',
    ]);
    // The rollbacks play because of the interruption (D70).
    expect(events.find((e) => e.type === 'phase-started' && e.phase === 'rollbacks')).toMatchObject({
      afterInterruption: true,
    });
    // The activity under way stopped: its process is gone, and its entry says why.
    const pid = Number(await readFile(pidFile, 'utf8'));
    expect(() => process.kill(pid, 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }));
    expect(journal.run.map((r) => [r.activity.name, r.status, r.exception?.[0]])).toEqual([
      [
        'sleeper',
        'failed',
        'Interrupted: the run was interrupted while this activity ran; it stopped at its next safe point',
      ],
    ]);
    expect(existsSync(join(dir, 'never'))).toBe(false);
    // The journal written last is the journal the run returned.
    expect(JSON.parse(written.at(-1)!)).toEqual(JSON.parse(JSON.stringify(journal)));
    expect(await journalFile.finished()).toBe(written.at(-1));
    // The log says it in the run's words.
    expect(lines).toContain('Action: sleeper');
    expect(lines).toContain(
      'WARN   => failed: Interrupted: the run was interrupted while this activity ran; it stopped at its next safe point',
    );
    expect(lines).toContain('WARN Interrupted: playing the rollbacks before stopping');
    expect(lines.at(-1)).toBe('Experiment ended with status: interrupted');
  });
});
