// The names Kubernetes gives objects, checked before any request: RFC 1123 subdomains (most
// objects, at most 253), RFC 1123 labels (namespaces, versions, at most 63) and RFC 1035 labels
// (services, at most 63, starting with a letter).

import { z } from 'zod';

export type NameRule = 'subdomain' | 'label' | 'rfc1035';

export const NAME_RULES: Record<NameRule, { pattern: RegExp; max: number; words: string }> = {
  subdomain: {
    pattern: /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/,
    max: 253,
    words:
      'lower-case letters, digits, "-" and ".", at most 253 characters, starting and ending alphanumeric',
  },
  label: {
    pattern: /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/,
    max: 63,
    words: 'lower-case letters, digits and "-", at most 63 characters, starting and ending alphanumeric',
  },
  rfc1035: {
    pattern: /^[a-z]([-a-z0-9]*[a-z0-9])?$/,
    max: 63,
    words:
      'lower-case letters, digits and "-", at most 63 characters, starting with a letter and ending alphanumeric',
  },
};

/** Whether `value` is a valid name under `rule`. */
export function isKubernetesName(value: string, rule: NameRule): boolean {
  const { pattern, max } = NAME_RULES[rule];
  return value.length <= max && pattern.test(value);
}

/**
 * A name argument: `what` says which name it is ("a deployment name", "an API group such as
 * \"stable.example.com\""), and a refusal says the rule in words.
 */
export function kubernetesName(what: string, rule: NameRule = 'subdomain') {
  return z.string().superRefine((value, ctx) => {
    if (!isKubernetesName(value, rule)) {
      ctx.addIssue({ code: 'custom', message: `${what}: ${NAME_RULES[rule].words}` });
    }
  });
}
