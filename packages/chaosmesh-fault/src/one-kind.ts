// The actions that add or remove one kind of fault (an abort or a delay) and keep the other:
// the same arguments and the same edit, told apart by the kind and, when adding, by the
// argument that gives the fault its value.

import { type ArgsOutput, type ArgsShape, defineActivity } from '@chaoskit/core';
import { ACTION_RBAC, ns, percentage, routes, version, virtualServiceName } from './args.js';
import { ACTIONS } from './modules.js';
import {
  type AbortFault,
  type DelayFault,
  describeFault,
  type Fault,
  type FaultEdit,
  type FaultKind,
  removeFaultKind,
  setFaultKind,
} from './routes.js';
import { editTarget } from './virtual-service.js';

/** The arguments of an add action, in 0.25.1 order: `value` (the fault's own) second. */
const addArgs = <V extends ArgsShape>(value: V) => ({
  virtual_service_name: virtualServiceName,
  ...value,
  routes,
  percentage,
  ns,
  version,
});

/** An action that edits the fault of the selected routes: `edit` says how, and in words. */
function faultAction<S extends ArgsShape>(
  name: string,
  doc: string,
  returns: string,
  args: S,
  edit: (args: ArgsOutput<S>) => [FaultEdit, string],
) {
  return defineActivity({
    name,
    kind: 'action',
    module: ACTIONS,
    doc,
    returns,
    args,
    rbac: ACTION_RBAC,
    run(args, ctx) {
      const [change, what] = edit(args);
      // The shape is generic here, which hides the target's fields from tsc.
      return editTarget(args as unknown as Parameters<typeof editTarget>[0], ctx, change, what);
    },
  });
}

/** `add_<kind>_fault`: sets the fault `fault` makes of the arguments on the selected routes. */
export function addFaultActivity<V extends ArgsShape>(definition: {
  kind: FaultKind;
  doc: string;
  value: V;
  fault: (args: ArgsOutput<ReturnType<typeof addArgs<V>>>) => AbortFault | DelayFault;
}) {
  const { kind, doc, value, fault } = definition;
  return faultAction(`add_${kind}_fault`, doc, 'the updated VirtualService', addArgs(value), (args) => {
    const set = fault(args);
    return [setFaultKind(kind, set), `set ${describeFault({ [kind]: set } as Fault)}`];
  });
}

/** `remove_<kind>_fault`: removes that kind of fault from the selected routes. */
export function removeFaultActivity(kind: FaultKind, doc: string) {
  return faultAction(
    `remove_${kind}_fault`,
    doc,
    'the updated VirtualService (as it is, when nothing had to change)',
    { virtual_service_name: virtualServiceName, routes, ns, version },
    () => [removeFaultKind(kind), `removed the ${kind} fault`],
  );
}
