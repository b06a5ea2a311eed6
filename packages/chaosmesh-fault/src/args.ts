// The arguments of the mesh activities, declared once: names, defaults, documentation and the
// local checks that refuse bad input before any request reaches the cluster.

import { accepting, kubernetesName, namespaceArg, z } from '@chaoskit/core';
import { FIXED_DELAY_ACCEPTED, fixedDelayProblem } from './duration.js';
import type { AbortFault, DelayFault, Fault, Percent } from './routes.js';

/** The networking API versions of Istio's VirtualService this package speaks. */
export const VERSIONS = [
  'networking.istio.io/v1alpha3',
  'networking.istio.io/v1beta1',
  'networking.istio.io/v1',
] as const;
export type MeshVersion = (typeof VERSIONS)[number];
export const DEFAULT_VERSION: MeshVersion = 'networking.istio.io/v1alpha3';

export const virtualServiceName = kubernetesName('a virtual service name').describe(
  'Name of the VirtualService (metadata.name).',
);

export const version = accepting(
  z.enum(VERSIONS),
  `one of ${VERSIONS.map((v) => `'${v}'`).join(', ')} (the full group/version)`,
)
  .default(DEFAULT_VERSION)
  .describe(
    "Group/version of Istio's networking API to read and write the VirtualService with: networking.istio.io/v1alpha3, v1beta1 or v1.",
  );

export const ns = namespaceArg('Namespace of the VirtualService.');

const ROUTES_ACCEPTED =
  'a non-empty list of mappings {destination: {host, subset?}} (host and subset non-empty strings; no other key)';

export const routes = accepting(
  z
    .array(
      z.strictObject({
        destination: z.strictObject({
          host: z.string().min(1).describe('Destination host, as written in the VirtualService.'),
          subset: z
            .string()
            .min(1)
            .optional()
            .describe('Destination subset; without it every destination of the host matches.'),
        }),
      }),
    )
    .min(1)
    .describe(
      'Which http routes to act on: an http route matches when one of its destinations has the host (and, when given, the subset) of one of these. Items without destination are refused.',
    ),
  ROUTES_ACCEPTED,
);

// `abort: true`: a value out of range fails its branch of the union outright, so the refusal
// names both accepted forms instead of reporting on one branch.
const percentValue = z.number().min(0, { abort: true }).max(100, { abort: true });
const PERCENTAGE_ACCEPTED = 'a number from 0 to 100, or a mapping {value: number from 0 to 100}';

/** A percentage: 50 or {value: 50}; always written to the mesh as Istio's {value}. */
export const percentageSchema = accepting(
  z
    .union([percentValue, z.strictObject({ value: percentValue })])
    .transform((p): Percent => (typeof p === 'number' ? { value: p } : { value: p.value })),
  PERCENTAGE_ACCEPTED,
);

/**
 * The share a fault gets when the user gives none: 100, written out (D85), so the object means
 * the same to every Istio version (the default of an absent percentage has changed over time).
 */
export const EVERY_REQUEST: Percent = { value: 100 };

export const percentage = percentageSchema
  .nullable()
  .transform((p): Percent => p ?? { ...EVERY_REQUEST })
  // prefault, not default: the default of a transformed value is otherwise left out of the
  // JSON Schema, and so of the documentation.
  .prefault(100)
  .describe(
    'Share of the requests affected, 0 to 100 (a number, or {value: number} as Istio writes it); default 100, every request, always written out (null means 100 too).',
  );

const HTTP_STATUS_ACCEPTED = "an HTTP status: an integer from 200 to 599 (Istio's abort.httpStatus)";

export const httpStatusSchema = accepting(z.int().min(200).max(599), HTTP_STATUS_ACCEPTED);

export const fixedDelaySchema = accepting(
  z.string().superRefine((value, ctx) => {
    const problem = fixedDelayProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: `${FIXED_DELAY_ACCEPTED}; ${problem}` });
  }),
  FIXED_DELAY_ACCEPTED,
);

const abortSchema = z
  .strictObject({ httpStatus: httpStatusSchema, percentage: percentageSchema.optional() })
  .transform(
    (a): AbortFault => ({ httpStatus: a.httpStatus, percentage: a.percentage ?? { ...EVERY_REQUEST } }),
  );

const delaySchema = z
  .strictObject({ fixedDelay: fixedDelaySchema, percentage: percentageSchema.optional() })
  .transform(
    (d): DelayFault => ({ fixedDelay: d.fixedDelay, percentage: d.percentage ?? { ...EVERY_REQUEST } }),
  );

const FAULT_ACCEPTED =
  "a mapping with abort {httpStatus: 200-599, percentage?} and/or delay {fixedDelay: duration such as '5s', percentage?}, as Istio's HTTPFaultInjection";

export const faultSchema = accepting(
  z
    .strictObject({ abort: abortSchema.optional(), delay: delaySchema.optional() })
    .superRefine((f, ctx) => {
      if (!f.abort && !f.delay) {
        ctx.addIssue({ code: 'custom', message: `${FAULT_ACCEPTED}; it has neither` });
      }
    })
    .transform(
      (f): Fault => ({ ...(f.abort ? { abort: f.abort } : {}), ...(f.delay ? { delay: f.delay } : {}) }),
    ),
  FAULT_ACCEPTED,
);

// `accepting` is schema metadata: the words survive `.describe()`.
export const httpStatus = httpStatusSchema.describe('HTTP status the aborted requests get (200 to 599).');

export const fixedDelay = fixedDelaySchema.describe(
  "How long each affected request is held, as Istio's fixedDelay: '5s', '500ms', '1.5s', '1m' (at least 1ms, in whole milliseconds).",
);

export const fault = faultSchema.describe(
  "The fault, as Istio's HTTPFaultInjection: abort {httpStatus, percentage?} and/or delay {fixedDelay, percentage?}; percentage as {value} or a number, 0 to 100, written as 100 when absent.",
);

/** The RBAC of the actions: read the VirtualService, write it back whole (PUT). */
export const ACTION_RBAC = [
  { apiGroups: ['networking.istio.io'], resources: ['virtualservices'], verbs: ['get', 'update'] },
];
export const PROBE_RBAC = [
  { apiGroups: ['networking.istio.io'], resources: ['virtualservices'], verbs: ['get'] },
];
