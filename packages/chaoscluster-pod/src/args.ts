// The arguments several pod activities share, declared once: names, documentation and the local
// checks that refuse bad input before any request.

import { accepting, labelSelectorString, namespaceArg, z } from '@chaoskit/core';
import { CommandError, parseCommand } from './command.js';

export const ns = namespaceArg('Namespace of the pods.');

/** `label_selector` of the probes: required, "" for every pod of the namespace. */
export const podsLabelSelector = labelSelectorString().describe(
  'Label selector of the pods ("" means every pod of the namespace).',
);

/** The phases a pod can be in (core/v1 PodPhase). */
export const POD_PHASES = ['Pending', 'Running', 'Succeeded', 'Failed', 'Unknown'] as const;

/** `phase`: one of the pod phases, so a typo ("running") is refused instead of never matching. */
export function phaseArg(doc: string) {
  return z.enum(POD_PHASES).describe(doc);
}

/** exec_in_pods' `cmd`: refused here when it cannot become an argv (D6), so run never fails on it. */
export const cmd = accepting(
  z
    .union([z.string(), z.array(z.string())])
    .superRefine((value, ctx) => {
      try {
        parseCommand(value);
      } catch (err) {
        if (!(err instanceof CommandError)) throw err;
        ctx.addIssue({ code: 'custom', message: err.message });
      }
    })
    .describe(
      'The command: a string split like a shell would (no shell runs it: use ["sh", "-c", "…"] for pipes or redirections), or a list of strings used as given.',
    ),
  'a command: a string, split into words as a shell would (quotes respected, no shell operators), or a list of strings',
);
