import { objectName } from '@chaoskit/core';
import type { V1Pod } from '@kubernetes/client-node';

/** The annotation kubectl reads to pick a pod's container when none is named. */
export const DEFAULT_CONTAINER_ANNOTATION = 'kubectl.kubernetes.io/default-container';

/**
 * The container kubectl would use (D4): the one the default-container annotation names when
 * the pod has it, else the first. Undefined for a pod without containers.
 */
export function defaultContainer(pod: V1Pod): string | undefined {
  const names = (pod.spec?.containers ?? []).map((c) => c.name);
  const annotated = pod.metadata?.annotations?.[DEFAULT_CONTAINER_ANNOTATION];
  if (annotated && names.includes(annotated)) return annotated;
  return names[0];
}

export function hasContainer(pod: V1Pod, name: string): boolean {
  return (pod.spec?.containers ?? []).some((c) => c.name === name);
}

/**
 * The container of each pod to run in: `containerName` where the pod has it, else the pod's
 * default container. `skipped` says, per pod left out, why.
 */
export function containersOf(
  pods: readonly V1Pod[],
  containerName: string | null,
): { targets: Array<{ pod: V1Pod; container: string }>; skipped: string[] } {
  const targets: Array<{ pod: V1Pod; container: string }> = [];
  const skipped: string[] = [];
  for (const pod of pods) {
    const container = containerName ?? defaultContainer(pod);
    if (container === undefined) skipped.push(`pod ${objectName(pod)} has no container; skipped`);
    else if (containerName !== null && !hasContainer(pod, container))
      skipped.push(`pod ${objectName(pod)} has no container named ${container}; skipped`);
    else targets.push({ pod, container });
  }
  return { targets, skipped };
}
