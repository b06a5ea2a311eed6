// Test-only (left out of the build): the parts of the experiments tests write.

/** A python provider of a chaoskit activity. */
export const python = (module: string, func: string, args: Record<string, unknown>) => ({
  type: 'python',
  module,
  func,
  arguments: args,
});

/** An action or a probe of an experiment, its provider the chaoskit activity `module`.`func`. */
export const activity = (
  type: 'action' | 'probe',
  name: string,
  module: string,
  func: string,
  args: Record<string, unknown>,
) => ({ type, name, provider: python(module, func, args) });
