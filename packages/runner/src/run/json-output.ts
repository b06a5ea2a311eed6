// `run --json`: the journal on stdout, as it was written when the run ended.

import type { RunListener } from './events.js';

export function jsonOutput(out: (text: string) => unknown): RunListener {
  return (event) => {
    if (event.type === 'journal-written' && event.final && event.to === 'file') out(event.text);
  };
}
