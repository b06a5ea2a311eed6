import { Writable } from 'node:stream';
import { Exec, type KubeConfig, type V1Status } from '@kubernetes/client-node';

/**
 * What one command printed in a container, and how it ended: a test's or a fixture's read, with
 * the identity of `kc` (an activity execs through core, with its rails).
 */
export async function execText(
  kc: KubeConfig,
  target: { namespace: string; pod: string; container: string },
  command: string[],
): Promise<{ stdout: string; stderr: string; status: V1Status }> {
  let stdout = '';
  let stderr = '';
  const sink = (append: (s: string) => void) =>
    new Writable({
      write(chunk, _enc, cb) {
        append(chunk.toString());
        cb();
      },
    });
  const status = await new Promise<V1Status>((resolve, reject) => {
    new Exec(kc)
      .exec(
        target.namespace,
        target.pod,
        target.container,
        command,
        sink((s) => (stdout += s)),
        sink((s) => (stderr += s)),
        null,
        false,
        resolve,
      )
      .catch(reject);
  });
  return { stdout, stderr, status };
}
