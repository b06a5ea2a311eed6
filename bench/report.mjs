// The bench's Markdown: the method first, then one table of whole-process times with the
// ratios, one of in-process times, one of requests and peak memory, and start → first request.

const s = (x, digits = 2) => (x === undefined ? '–' : x.toFixed(digits));
// A variant killed at the bench's --limit has no times: `{ stopped: <seconds> }` stands for them,
// and a ratio with it is a bound.
const cell = (st, unit = ' s', digits = 2) =>
  st?.stopped
    ? `> ${st.stopped}${unit} (killed, not finished)`
    : st
      ? `${s(st.median, digits)}${unit} (${s(st.min, digits)}–${s(st.max, digits)})`
      : '–';
const ratio = (a, b) => {
  if (!a || !b || (a.stopped && b.stopped)) return '–';
  if (a.stopped) return `> ${(a.stopped / b.median).toFixed(1)}×`;
  if (b.stopped) return `< ${(a.median / b.stopped).toFixed(1)}×`;
  return `${(a.median / b.median).toFixed(1)}×`;
};
/** chaoskit's throughput as a share of the reference's: the same work, so its time over ours. */
const share = (reference, ours) => {
  if (!reference || !ours || reference.stopped) return '–';
  if (ours.stopped) return `< ${((100 * reference.median) / ours.stopped).toFixed(0)} %`;
  return `${((100 * reference.median) / ours.median).toFixed(0)} %`;
};
/** The times of each variant, or the stand-in of one killed at the limit. */
const timed = (variants) =>
  Object.fromEntries(
    Object.entries(variants).map(([name, v]) => {
      const stopped = v.stoppedAfterSeconds && { stopped: v.stoppedAfterSeconds };
      return [name, { ...v, seconds: v.seconds ?? stopped, inProcessSeconds: v.inProcessSeconds ?? stopped }];
    }),
  );

export const METHOD = [
  'Method: one run of `./dev bench` on one local cluster (kube-apiserver, etcd, controller-manager,',
  'scheduler, kwok nodes), every tool in the same run against the same objects, each as its own',
  'service account bound to cluster-admin (so the audit log attributes every request).',
  '- **Whole process**: wall time of the command from spawn to exit, as a user runs it: `chaoskit run`',
  "  and Chaos Toolkit's `chaos run` of the same experiment file (Chaos Toolkit's module names, which",
  '  both accept), `chaoskit call` for one activity, and the kubectl command an operator would type.',
  '  **One file** is the same `chaoskit run` from the single executable (Node and its startup',
  "  snapshot with the command loaded, D157), the runner image's payload.",
  '  chaoskit run keeps its record of changes in the cluster (its default), which costs requests.',
  '- **In process**: the activities called in a fresh process after their package is loaded',
  "  (chaoskit: the activity's `call`; Python: the function), the clock around the calls only.",
  '- Times are median (min–max) of the repeats; a destructive scenario restores the workload',
  "  before every execution (untimed). Requests are counted in the apiserver's audit log; peak RSS",
  "  is GNU time's maximum resident set size of the process (and its children). Ratios are",
  '  medians divided by medians, above 1 when chaoskit is faster. No result is asserted anywhere.',
  "- **Reference**: the apiserver's own limit. benchref, a Go program on client-go v0.33 (the",
  "  ecosystem's own client, of the Kubernetes release the cluster runs), with its client-side rate",
  '  limit off and 64 requests out at once over one HTTP/2 connection, does the same work as its own',
  '  identity: lists the pods (500 a page) and counts them, or deletes the chosen ones with grace 0',
  '  (terminate), or cordons the node, evicts its pods and waits until they are gone (drain).',
  '  Its in-process time is its own clock around that work. **chaoskit / reference** is',
  "  chaoskit's throughput as a share of the reference's: the reference's median time divided by",
  "  chaoskit's (whole process: `chaoskit call`, else `chaoskit run`; in process: the activity's",
  '  call), 100 % when chaoskit is as fast as the apiserver allows.',
].join('\n');

export function markdownReport(report) {
  const lines = [
    '# chaoskit bench',
    '',
    `${report.date} · ${report.machine.cpus} CPUs (${report.machine.cpu}), ${report.machine.memoryGiB} GiB · node ${report.versions.node} · ${report.versions.python} · ${report.versions.originals.join(', ')} · ${report.versions.kubectl}`,
    `Cluster: ${report.cluster.nodes} kwok nodes, pods ${JSON.stringify(report.cluster.pods)}, started in ${s(report.cluster.startSeconds, 1)} s; ${report.repeats} repeat(s)${report.limitSeconds ? `; a process still running after ${report.limitSeconds} s was killed, shown as \`> ${report.limitSeconds} s\`, and not run again` : ''}.`,
    ...(report.note ? ['', report.note] : []),
    '',
    METHOD,
    '',
    '## Whole process',
    '',
    '| scenario | chaoskit run | one file | Chaos Toolkit `chaos run` | chaoskit call | kubectl | reference | Python ÷ chaoskit (run) | kubectl ÷ chaoskit (call) | chaoskit / reference |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const sc of report.scenarios) {
    const v = timed(sc.variants);
    const call = v['chaoskit call']?.seconds;
    const ref = v.reference?.seconds;
    lines.push(
      `| ${sc.title} | ${cell(v['chaoskit run']?.seconds)} | ${cell(v['chaoskit one file']?.seconds)} | ${cell(v['python run']?.seconds)} | ${cell(call)} | ${cell(v.kubectl?.seconds)} | ${cell(ref)} | ${ratio(v['python run']?.seconds, v['chaoskit run']?.seconds)} | ${call ? ratio(v.kubectl?.seconds, call) : `${ratio(v.kubectl?.seconds, v['chaoskit run']?.seconds)} (vs run)`} | ${share(ref, call ?? v['chaoskit run']?.seconds)} |`,
    );
  }
  lines.push(
    '',
    '## In process',
    '',
    '| scenario | chaoskit | Python original | reference | Python ÷ chaoskit | chaoskit / reference |',
    '| --- | --- | --- | --- | --- | --- |',
  );
  for (const sc of report.scenarios) {
    const v = timed(sc.variants);
    const c = v['chaoskit in-process']?.inProcessSeconds;
    const p = v['python in-process']?.inProcessSeconds;
    const r = v.reference?.inProcessSeconds;
    lines.push(
      `| ${sc.title} | ${cell(c, ' s', 3)} | ${cell(p, ' s', 3)} | ${cell(r, ' s', 3)} | ${ratio(p, c)} | ${share(r, c)} |`,
    );
  }
  lines.push(
    '',
    '## Requests, memory and start',
    '',
    'Requests (median) and peak RSS (median, MB) of the whole processes; start → first request is the time from spawning the process to the apiserver receiving its first request (median, ms).',
    '',
    '| scenario | requests chaoskit run / one file / chaos run / kubectl / reference | peak RSS chaoskit run / one file / chaos run / kubectl / reference | start → first request chaoskit run / one file / chaos run / kubectl / reference |',
    '| --- | --- | --- | --- |',
  );
  const perTool = (sc, key, digits = 0) =>
    ['chaoskit run', 'chaoskit one file', 'python run', 'kubectl', 'reference']
      .map((n) => s(sc.variants[n]?.[key]?.median, digits))
      .join(' / ');
  for (const sc of report.scenarios)
    lines.push(
      `| ${sc.title} | ${perTool(sc, 'requests')} | ${perTool(sc, 'rssMb')} | ${perTool(sc, 'firstRequestMs')} |`,
    );
  const failures = report.scenarios.flatMap((sc) =>
    Object.entries(sc.variants).flatMap(([v, r]) => r.failures.map((f) => `- ${sc.id} · ${v}: ${f}`)),
  );
  if (failures.length) lines.push('', '## Failures', '', ...failures);
  return `${lines.join('\n')}\n`;
}
