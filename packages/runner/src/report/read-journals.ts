// Reading journals for a report: bounded JSON (core's reader), and redacted before anything is
// shown. chaoskit masks secrets when it writes a journal; Chaos Toolkit does not, so the secrets
// an experiment declares (literals, and the environment variables it names when they are set
// here) are registered with core's redaction first, then every journal is redacted whole.
import { DocumentFileError, readDocumentFile } from '@chaoskit/core';
import { redactValue, registerSecret } from '@chaoskit/core/runner';
import { isObject } from './model.js';

export interface ReadJournal {
  source: string;
  journal: unknown;
}

/** Registers every secret value an experiment's `secrets` block holds or names (`{type: env, key}`). */
function registerExperimentSecrets(experiment: unknown, env: NodeJS.ProcessEnv = process.env): void {
  if (!isObject(experiment)) return;
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (isObject(value)) {
      if (value.type === 'env' && typeof value.key === 'string') registerSecret(env[value.key]);
      else Object.values(value).forEach(visit);
    } else if (typeof value === 'string' || typeof value === 'number') registerSecret(String(value));
  };
  visit(experiment.secrets);
}

/**
 * Reads and redacts the journals (the files, then those already read elsewhere: `fetched`); an
 * unreadable file is an error naming it and why.
 */
export function readJournals(
  files: string[],
  env: NodeJS.ProcessEnv = process.env,
  fetched: readonly ReadJournal[] = [],
): ReadJournal[] {
  const fromFiles = files.map((source) => {
    try {
      return { source, journal: readDocumentFile(source, 'json').document };
    } catch (err) {
      if (err instanceof DocumentFileError) throw new Error(`${source}: ${err.message}`);
      throw err;
    }
  });
  const read = [...fromFiles, ...fetched];
  // Every journal's secrets first: one journal's secret may appear in another's output.
  for (const { journal } of read) if (isObject(journal)) registerExperimentSecrets(journal.experiment, env);
  return read.map(({ source, journal }) => ({ source, journal: redactValue(journal) }));
}
