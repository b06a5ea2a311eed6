// A CommonJS package's exports, from its dynamic import. Node gives its namespace both the named
// exports it detects and `default` (the module's `exports`); the bundled command (D149) gives
// only `default`, so `const { Metadata } = await import('@grpc/grpc-js')` found nothing there.
export function exportsOf<T extends object>(namespace: T): T {
  const exports = (namespace as { default?: unknown }).default;
  return (exports !== null && typeof exports === 'object' ? exports : namespace) as T;
}
