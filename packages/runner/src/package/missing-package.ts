// An optional package that is not installed, told from any other failure to load it: Node's
// not-found error naming the package itself (or a path in it), not a module the package failed
// to find inside its own install.

/** Whether `err` is Node's failure to find one of `packages` (import or require). */
export function isMissingPackage(err: unknown, packages: readonly string[]): boolean {
  const { code, message } = (err ?? {}) as { code?: unknown; message?: unknown };
  if ((code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') || typeof message !== 'string')
    return false;
  return packages.some((name) => message.includes(`'${name}'`) || message.includes(`'${name}/`));
}
