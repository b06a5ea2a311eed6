// Argument schemas shared by many activities, declared once: the names, defaults, docs and
// local checks of `ns`, `label_selector`, `name_pattern` and the pod selection family.
// Everything here is checked by `validate`, before any request reaches the cluster.

import { z } from 'zod';
import { LabelSelectorError, parseLabelSelector } from './label-selector.js';
import { kubernetesName } from './names.js';
import { SINCE_ACCEPTED, sinceSeconds } from './parse-since.js';
import { MAX_SEED } from './random.js';
import { regexProblem } from './regex.js';

const TARGET_NAMESPACES = new WeakSet<z.ZodType>();

/**
 * `ns`: a namespace name. A `target` namespace is where an action makes its changes: the
 * namespace rail checks it before the action runs (a `selection` one is only read).
 */
export function namespaceArg(doc = 'Namespace of the objects.', role: 'target' | 'selection' = 'target') {
  const schema = kubernetesName('a namespace name', 'label').default('default').describe(doc);
  if (role === 'target') TARGET_NAMESPACES.add(schema);
  return schema;
}

/** Whether an argument is a namespace an action changes (made by namespaceArg). */
export function isTargetNamespace(schema: unknown): boolean {
  return typeof schema === 'object' && schema !== null && TARGET_NAMESPACES.has(schema as z.ZodType);
}

/** `seed`: the seed of a random choice, to repeat a run; the seed used is part of the result. */
export function seedArg(doc: string) {
  return z.int().min(0).max(MAX_SEED).nullable().default(null).describe(doc);
}

/**
 * `last` of the log probes: a number of seconds or a duration ("90s", "5 minutes", "1h30m ago"),
 * given to `run` as whole seconds (D16, docs/decisions.md); null or 0: no limit.
 */
export function lastArg(doc: string) {
  return (
    z
      .union([z.string(), z.number()])
      .transform((value, ctx) => {
        const seconds = sinceSeconds(value);
        if (seconds === undefined) {
          ctx.addIssue({ code: 'custom', message: SINCE_ACCEPTED });
          return z.NEVER;
        }
        return seconds;
      })
      .meta({
        accepted: 'a number of seconds or a duration such as "90s", "5 minutes", "1h30m", "2 hours ago"',
      })
      .nullable()
      // prefault, not default: the default of a transformed value is otherwise left out of the
      // JSON Schema, and so of the documentation.
      .prefault(null)
      .describe(doc)
  );
}

function labelSelectorCheck(value: string, ctx: z.core.$RefinementCtx<string>): void {
  try {
    parseLabelSelector(value);
  } catch (err) {
    const detail = err instanceof LabelSelectorError ? err.message : String(err);
    ctx.addIssue({
      code: 'custom',
      message: `a Kubernetes label selector such as "app=web,tier in (a,b)" (${detail})`,
    });
  }
}

/** A label selector string, parsed locally so a typo is refused with its position. */
export function labelSelectorString() {
  return z.string().superRefine(labelSelectorCheck);
}

function regexCheck(value: string, ctx: z.core.$RefinementCtx<string>): void {
  const problem = regexProblem(value);
  if (problem) {
    ctx.addIssue({
      code: 'custom',
      message: `a regular expression in RE2 syntax, without backreferences or lookaround (${problem})`,
    });
  }
}

/** A regular expression (RE2: matched in linear time), compiled locally. */
export function regexString() {
  return z.string().superRefine(regexCheck);
}

/** The pod selection arguments of chaostoolkit-kubernetes 0.25.1 (terminate_pods, exec_in_pods). */
export function podSelectionArgs() {
  return {
    label_selector: labelSelectorString()
      .nullable()
      .default(null)
      .describe(
        'Label selector of the pods; with neither this nor name_pattern, every pod of the namespace.',
      ),
    name_pattern: regexString()
      .nullable()
      .default(null)
      .describe('Regular expression searched in pod names (a match anywhere, unless anchored with ^ or $).'),
    all: z
      .boolean()
      .default(false)
      .describe('Select every matching pod (qty, mode and rand are then ignored).'),
    rand: z.boolean().default(false).describe('Pick the pods at random instead of the first ones.'),
    seed: seedArg(
      'Seed of the random choice (with rand); the seed used is part of the result, to repeat a run.',
    ),
    mode: z
      .enum(['fixed', 'percentage'])
      .default('fixed')
      .describe("'fixed': qty pods; 'percentage': qty percent of them."),
    qty: z
      .int()
      .min(0)
      .default(1)
      .describe(
        'How many pods (mode fixed), or which percentage of them, 1 to 100, rounded up (mode percentage).',
      ),
    order: z
      .enum(['alphabetic', 'oldest'])
      .default('alphabetic')
      .describe("'alphabetic': by name; 'oldest': by creation time, oldest first."),
    ns: namespaceArg(),
  };
}

/** Cross-argument rule of the selection family: a percentage is 1 to 100. */
export function checkPodSelection(args: { mode: string; qty: number }) {
  if (args.mode === 'percentage' && (args.qty < 1 || args.qty > 100)) {
    return { argument: 'qty' as const, accepted: "an integer from 1 to 100 with mode 'percentage'" };
  }
  return undefined;
}

/** The default selector of 0.25.1's name-based activities: a label `name` equal to `name`. */
export const NAME_SELECTOR_TEMPLATE = 'name in ({name})';

/**
 * `label_selector` of the name-based activities: `{name}` in it is replaced by the `name`
 * argument (a selector without `{name}` is used as given). Checked after the replacement, by
 * `checkNameSelector`.
 */
export function nameSelectorArg(defaultTemplate: string | null = NAME_SELECTOR_TEMPLATE) {
  const schema = z
    .string()
    .describe(
      `Label selector; {name} is replaced by the name argument${defaultTemplate ? ` (default "${defaultTemplate}": pods labelled name=<name>)` : ''}.`,
    );
  return defaultTemplate === null ? schema.nullable().default(null) : schema.default(defaultTemplate);
}

export function formatNameSelector(template: string, name: string | null | undefined): string {
  return template.split('{name}').join(name ?? '');
}

/** A `check` hook: the selector must parse once `{name}` is replaced, and needs a name if it uses one. */
export function checkNameSelector(args: { name?: string | null; label_selector?: string | null }) {
  const template = args.label_selector;
  if (!template) return undefined;
  if (template.includes('{name}') && !args.name) {
    return {
      argument: 'name' as const,
      accepted: `a name, which label_selector "${template}" refers to`,
      value: args.name,
    };
  }
  try {
    parseLabelSelector(formatNameSelector(template, args.name));
  } catch (err) {
    return {
      argument: 'label_selector' as const,
      accepted: `a Kubernetes label selector once {name} is replaced (${(err as Error).message})`,
    };
  }
  return undefined;
}
