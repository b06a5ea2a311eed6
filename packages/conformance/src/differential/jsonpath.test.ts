// JSONPath tolerances, with chaoslib as the oracle (D161): every path of the corpus, on every
// document, goes through chaostoolkit-lib's own validation and tolerance check (with jsonpath2
// 0.4.5, from PyPI) and through chaoskit's `validateTolerance` and `withinTolerance`. The
// verdicts, the values the path finds (compared as chaoslib compares an `expect`, in order)
// and the outcome (met or not) must be the same; where they differ on purpose, the case says
// why.

import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { validateTolerance, withinTolerance } from '@chaoskit/runner';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensurePythonOriginals } from './python-env.js';

const run = promisify(execFile);

// chaoslib's side: its validation, then its `within_tolerance`; and the values jsonpath2 finds,
// read the way within_tolerance reads its document (target, then JSON text parsed).
const ORACLE = `
import json, sys
from chaoslib import substitute
from chaoslib.exceptions import InvalidActivity
from chaoslib.hypothesis import ensure_hypothesis_tolerance_is_valid, within_tolerance
from jsonpath2.path import Path

def document(tolerance, value):
    if tolerance.get("target"):
        value = value.get(tolerance["target"], value)
    if isinstance(value, str):
        try:
            return json.loads(value)
        except json.decoder.JSONDecodeError:
            pass
    return value

def failure(error):
    return {"error": type(error).__name__ + ": " + str(error)}

out = []
for case in json.load(sys.stdin):
    tolerance, value = case["tolerance"], case["value"]
    try:
        ensure_hypothesis_tolerance_is_valid(tolerance)
    except InvalidActivity as error:
        out.append({"valid": False, "problem": str(error)})
        continue
    said = {"valid": True}
    configuration = case.get("configuration") or {}
    try:
        path = Path.parse_str(substitute(tolerance["path"], configuration, None))
        said["values"] = [m.current_value for m in path.match(document(tolerance, value))]
    except Exception as error:
        said["values"] = failure(error)
    try:
        said["met"] = within_tolerance(tolerance, value, configuration=configuration)
    except Exception as error:
        said["met"] = failure(error)
    out.append(said)
json.dump(out, sys.stdout)
`;

type Json = Record<string, unknown>;
type Failure = { error: string };
interface Said {
  valid: boolean;
  problem?: string;
  values?: unknown[] | Failure;
  met?: boolean | Failure;
}
interface Case {
  name: string;
  tolerance: Json;
  value: unknown;
  configuration?: Json;
  /** Where chaoskit differs on purpose: the decision, and chaoskit's verdict. */
  differs?: { decision: string; chaoskit: 'refused' };
}

// A kwok node list, as get_nodes returns it (chaostoolkit-kubernetes and chaoskit alike).
const node = (i: number, extra: { unschedulable?: boolean; ready?: string } = {}) => ({
  metadata: {
    name: `kwok-node-${i}`,
    uid: `0000-${i}`,
    labels: { 'kubernetes.io/hostname': `kwok-node-${i}`, type: 'kwok', 'node-role.kubernetes.io/agent': '' },
    annotations: { 'kwok.x-k8s.io/node': 'fake' },
  },
  spec: {
    taints: [{ key: 'kwok.x-k8s.io/node', value: 'fake', effect: 'NoSchedule' }],
    ...(extra.unschedulable === undefined ? {} : { unschedulable: extra.unschedulable }),
  },
  status: {
    allocatable: { cpu: '32', memory: '256Gi', pods: '110' },
    conditions: [
      { type: 'Ready', status: extra.ready ?? 'True', reason: 'KubeletReady' },
      { type: 'MemoryPressure', status: 'False' },
    ],
  },
});
const NODES = {
  kind: 'NodeList',
  apiVersion: 'v1',
  metadata: { resourceVersion: '42' },
  items: [node(0), node(1, { unschedulable: true, ready: 'False' }), node(2, { unschedulable: false })],
};
// Every JSON type, Python's equality traps (true and 1, 0 and false, "1" and 1), unicode,
// keys that only brackets reach. No key reads as an integer: JavaScript orders those first
// (D161).
const MIXED = {
  foo: [{ baz: 1 }, { baz: 2 }],
  bar: {
    baz: 'hello',
    n: null,
    t: true,
    f: false,
    zero: 0,
    half: 0.5,
    list: [1, '1', true, false, 0, null, [1, 2], { a: 1 }, 'x', 2.5, -3],
    empty: [],
    obj: {},
  },
  héllo: { 名前: 'ü', 'a b': 1, 'x-y': 2, true: 3, '': 4, 'esc\\"q': 5, 'a\\u0041': 6, '😀': 7 },
  nums: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  str: 'héllo wörld 😀',
  nested: { a: { b: { c: { d: 'deep' } } } },
  idx: 2,
  key: 'baz',
  flag: true,
};
const LIST = [{ a: 1 }, { a: 2, b: [{ c: true }, { c: 0 }] }, 'x', 3, null, [{ a: 1 }]];
const DOCUMENTS: [string, unknown][] = [
  ['nodes', NODES],
  ['mixed', MIXED],
  ['list', LIST],
  ['text', 'plain text'],
  ['number', 42],
  ['null', null],
];

const PATHS = [
  // The path, and what it leads to.
  '$.items[*][?(@.metadata.name = "kwok-node-0")]',
  '$.items[*][?(@.metadata.name = "kwok-node-0")].metadata.name',
  '$.items[*][?(@.metadata.name == "kwok-node-0")]',
  '$.items[?(@.metadata.name = "kwok-node-0")]',
  '$.items[?(@.metadata.name == "kwok-node-0")]',
  '$.items[*][?(@.spec.unschedulable = true)].metadata.name',
  '$.items[*][?(@.spec.unschedulable)].metadata.name',
  '$.items[*][?(not @.spec.unschedulable)].metadata.name',
  '$.items[*][?(@.spec.unschedulable != true)].metadata.name',
  '$.items[*].status.conditions[*][?(@.type = "Ready" and @.status = "True")]',
  '$.items[*][?(@.status.conditions[*].type = "Ready")].metadata.name',
  '$.items[*][?(@.status.conditions[*].status = "False")].metadata.name',
  '$.items[*].metadata.labels["kubernetes.io/hostname"]',
  '$.items[*].metadata.labels["node-role.kubernetes.io/agent"]',
  '$.items[*].metadata.labels.type',
  '$.items[*].metadata.labels.kubernetes.io/hostname',
  '$.items.length()',
  '$.items[-1].metadata.name',
  '$.items[0:2].metadata.name',
  '$.items[::2]..name',
  '$..name',
  '$..metadata.name',
  '$..[?(@.type = "Ready")]',
  '$..conditions[0].status',
  '$.items[*][?(@.status.allocatable.cpu = "32")].metadata.uid',
  '$.items[*].metadata[?(@.name != "kwok-node-1")].name',
  '$.items[*][?(@.metadata.name = "kwok-node-0" or @.metadata.name = "kwok-node-2" and @.spec.unschedulable = false)].metadata.name',
  '$.items[*][?(@.spec.unschedulable = false and @.metadata.name = "kwok-node-0" or @.metadata.name = "kwok-node-2")].metadata.name',
  '$.items[*][?((@.metadata.name = "kwok-node-0" or @.metadata.name = "kwok-node-2") and not @.spec.unschedulable)].metadata.name',
  '$.items[*].metadata.name.substring(0, 9)',
  '$.items[*].metadata.name.charAt(-1)',
  '$.items[*].metadata.labels.keys()',
  '$.items[*].metadata.labels.values()',
  '$.items[*].spec.taints[0].entries()',
  '$.kind',
  '$',
  '$.metadata.resourceVersion',
  '$.items.kwok-node-0',
  '$.items[*].node-0',
  '$..kwok-node',
  // Filters test the node they follow.
  '$.foo.*[?(@.baz)]',
  '$.foo.*[?(@.baz = 2)]',
  '$.foo[?(@.baz)]',
  '$.foo[?(@[*].baz)]',
  '$.foo[?(@[*].baz = 2)]',
  '$.bar[?(@.baz)].baz',
  '$.bar[?(@.baz = "hello")]',
  '$.bar[?(@.baz=="hello")]',
  '$[?(@.foo[*].baz = @.foo[*].baz)]',
  '$[?(@.nums[*] = @.foo[*].baz)]',
  '$[?(@.foo[*].baz = 2)]',
  '$[?($.idx = 2)].key',
  // Literals and Python's comparisons.
  '$.bar.list[*][?(@ = 1)]',
  '$.bar.list[*][?(@ != 1)]',
  '$.bar.list[*][?(@ < 2)]',
  '$.bar.list[*][?(@ <= 1)]',
  '$.bar.list[*][?(@ > 0)]',
  '$.bar.list[*][?(@ >= true)]',
  '$.bar.list[*][?(@ = null)]',
  '$.bar.list[*][?(@ = "1")]',
  '$.bar.list[*][?(@ = [1, 2])]',
  '$.bar.list[*][?(@ = {"a": 1})]',
  '$.bar.list[*][?(@ = 1.0)]',
  '$.bar.list[*][?(@ = 25e-1)]',
  '$.bar.list[*][?(@ = -3)]',
  '$.bar.list[*][?(@ = false)]',
  '$.bar.list[*][?(@ < "y")]',
  '$.bar.list[*][?(@)]',
  '$.bar.list[*][?(not @)]',
  '$.bar.list[*][?(true)]',
  '$.bar.list[*][?(false)]',
  '$.bar.list[*][?(null)]',
  '$.bar.list[*][?(0)]',
  '$.bar.list[*][?("")]',
  '$.bar.list[*][?("x")]',
  '$.bar.list[*][?([])]',
  '$.bar.list[*][?({})]',
  '$.bar.list[*][?([0])]',
  '$.bar[?(@.t = 1)]',
  '$.bar[?(@.f = 0)]',
  '$.bar[?(@.zero = false)]',
  '$.bar[?(@.half > 0.25)]',
  '$.bar[?(@.n = null)]',
  '$.bar[?(@.n)]',
  '$.bar[?(@.missing)]',
  '$.bar[?(@.missing = null)]',
  '$.bar[?(@.missing != 1)]',
  '$.bar[?(@.empty = [])]',
  '$.bar[?(@.obj = {})]',
  '$.bar[?(not not @.t)]',
  '$.bar[?(@.t=1and@.f=0)]',
  '$.bar[?(@.t = 1 AND @.f = 0)]',
  // Indexes and slices, Python's way.
  '$.nums[2]',
  '$.nums[-1]',
  '$.nums[-11]',
  '$.nums[10]',
  '$.nums[1:3]',
  '$.nums[:3]',
  '$.nums[7:]',
  '$.nums[:]',
  '$.nums[::]',
  '$.nums[::3]',
  '$.nums[::-1]',
  '$.nums[9:0:-2]',
  '$.nums[-3:]',
  '$.nums[:-3]',
  '$.nums[-100:2]',
  '$.nums[2:-100]',
  '$.nums[1:-20:-1]',
  '$.nums[:-5:-1]',
  '$.nums[5:1]',
  '$.nums[100:]',
  '$.nums[0,2,-1]',
  '$.nums[0,0]',
  '$.nums[1:3,5]',
  '$.nums[*]',
  '$.nums[$.idx]',
  '$.nums[$.flag]',
  '$.nums[@.length()]',
  '$.bar[$.key]',
  '$.foo[*][$.key]',
  '$.nums.keys()',
  '$.nums.entries()',
  '$.nums.values()[0]',
  // Names: in brackets and double quotes whatever they hold, taken as written.
  '$["héllo"]["名前"]',
  '$["héllo"]["a b"]',
  '$["héllo"]["x-y"]',
  '$["héllo"]["true"]',
  '$["héllo"][""]',
  '$["héllo"]["esc\\"q"]',
  '$["héllo"]["a\\u0041"]',
  '$["héllo"]["😀"]',
  '$["héllo"].*',
  '$["foo"][0]["baz"]',
  '$["foo","bar"]',
  '$.nots',
  '$.andy',
  '$.nullable',
  // Functions.
  '$.str.length()',
  '$.str.charAt(1)',
  '$.str.charAt(-1)',
  '$.str.charAt(100)',
  '$.str.charAt(1.0)',
  '$.str.charAt(true)',
  '$.str.charAt("1")',
  '$.str.substring(2)',
  '$.str.substring(-5)',
  '$.str.substring(1, -1)',
  '$.str.substring(4, 2)',
  '$.str.substring($.idx)',
  '$.str.charAt(@.length())',
  '$.str.length(1)',
  '$.bar.keys()',
  '$.bar.values()',
  '$.bar.entries()',
  '$.bar.length()',
  '$.bar.list.length()',
  '$.foo[*].baz.length()',
  '$[keys()]',
  '$..length()',
  // Descent.
  '$..baz',
  '$..[0]',
  '$..*[?(@.baz = 1)]',
  '$..d',
  '$.nested..d',
  '$..["a b"]',
  '$..*',
  '$..[?(@.a)]',
  '$..c',
  // Whitespace.
  ' $ . foo [ 0 ] ',
  '$.foo[ ?( @.baz = 1 ) ]',
  '$.foo [*] . baz',
  // What jsonpath2 refuses.
  '$.a[?(@.b === 1)]',
  '$..book[(@.length-1)]',
  '$.foo[*][?(@.baz && @.baz)]',
  '$.foo[*][?(@.baz || @.baz)]',
  '$.foo[*][?(!@.baz)]',
  '$.foo[*][?(@.baz =~ /x/)]',
  '$.foo[1.5]',
  '$.foo[01]',
  '$.foo[1e2]',
  '$.foo[1:2.0]',
  'foo.baz',
  '@.foo',
  '.foo',
  '[0]',
  '$.',
  '$..',
  '$.foo.',
  '$[',
  '$]',
  '$.foo[0',
  '$[]',
  '$.foo[?(@.baz)',
  '$.foo[?@.baz]',
  '$.foo[?()]',
  '$.foo()',
  '$.foo.0',
  '$.foo[baz]',
  '$.foo[true]',
  '$.true',
  '$.null',
  '$["foo"',
  "$['foo']",
  "$.foo[*][?(@.baz = 'x')]",
  '$.foo[*][?(@.baz in [1])]',
  '$.foo[-]',
  '$.nums[1:2:3:4]',
  '$.名前',
  '$$',
  '$.foo baz',
  '$.foo[*][?(@.baz = )]',
  '$.foo[*][?(= 1)]',
  '$.foo[*][?(@.baz = 1 2)]',
  '$["a\\x"]',
  '$[{"a": 1}]',
  '$.foo[*][?(@.baz = {"x": })]',
  '$.foo[*][?(@.baz < -)]',
  '$.foo[*][?(@.baz = 01)]',
  '$.foo[*][?(@.baz = .5)]',
  '$.foo[?(@.baz = 1]',
  '$.nums[::0]',
  '$.str.charAt()',
];

const kinds = (value: unknown) => (value === null ? 'null' : typeof value);
const cases: Case[] = [
  ...PATHS.flatMap((path) =>
    DOCUMENTS.map(
      ([doc, value]): Case => ({
        name: `${path} on ${doc}`,
        tolerance: { type: 'jsonpath', path },
        value,
        ...(path === '$.nums[::0]' ? { differs: { decision: 'D161', chaoskit: 'refused' as const } } : {}),
      }),
    ),
  ),
  // count, expect and target, as chaoslib applies them.
  ...(
    [
      ['the issue: count 1', { path: '$.items[*][?(@.metadata.name = "kwok-node-0")]', count: 1 }, NODES],
      ['count 2 of 1', { path: '$.items[*][?(@.metadata.name = "kwok-node-0")]', count: 2 }, NODES],
      ['count 0 of none', { path: '$.items[?(@.metadata.name = "kwok-node-0")]', count: 0 }, NODES],
      ['count 3 of 3', { path: '$.items[*]', count: 3 }, NODES],
      ['count null is no count', { path: '$.nope', count: null }, MIXED],
      [
        'expect a name',
        { path: '$.items[*][?(@.spec.unschedulable)].metadata.name', expect: 'kwok-node-1' },
        NODES,
      ],
      [
        'expect names in order',
        { path: '$..metadata.name', expect: ['kwok-node-0', 'kwok-node-1', 'kwok-node-2'] },
        NODES,
      ],
      [
        'expect names out of order',
        { path: '$..metadata.name', expect: ['kwok-node-1', 'kwok-node-0', 'kwok-node-2'] },
        NODES,
      ],
      ['expect 1 finds true', { path: '$.bar.t', expect: 1 }, MIXED],
      ['expect false finds 0', { path: '$.bar.zero', expect: false }, MIXED],
      ['expect "1" does not find 1', { path: '$.foo[0].baz', expect: '1' }, MIXED],
      ['expect 1.5 does not find 1', { path: '$.foo[0].baz', expect: 1.5 }, MIXED],
      ['expect [] of none', { path: '$.nope', expect: [] }, MIXED],
      ['expect null', { path: '$.bar.n', expect: null }, MIXED],
      ['expect a list in a list', { path: '$.bar.list[6]', expect: [[1, 2]] }, MIXED],
      ['expect a list unwrapped', { path: '$.bar.list[6]', expect: [1, 2] }, MIXED],
      ['expect a mapping', { path: '$.bar.list[7]', expect: { a: 1 } }, MIXED],
      ['expect over count', { path: '$.foo[*].baz', count: 5, expect: [1, 2] }, MIXED],
      ['expect substituted', { path: '$.bar.baz', expect: '${greeting}' }, MIXED, { greeting: 'hello' }],
      [
        'path substituted in a string',
        { path: '$.bar[?(@.baz = "${greeting}")]', count: 1 },
        MIXED,
        { greeting: 'hello' },
      ],
      [
        'target body',
        { path: '$.status', target: 'body', expect: 'ok' },
        { status: 500, body: { status: 'ok' } },
      ],
      [
        'target missing: the value itself',
        { path: '$.status', target: 'body', expect: 500 },
        { status: 500 },
      ],
      [
        'target stdout, JSON text',
        { path: '$.items[*].metadata.name', target: 'stdout', count: 3 },
        { stdout: JSON.stringify(NODES) },
      ],
      [
        'JSON text',
        { path: '$.items[*][?(@.metadata.name = "kwok-node-2")]', count: 1 },
        JSON.stringify(NODES),
      ],
      ['JSON text of a string', { path: '$', expect: 'x' }, '"x"'],
      ['not JSON text', { path: '$', expect: 'plain text' }, 'plain text'],
      ['a number in text', { path: '$', expect: 12 }, '12'],
      ['target on a string (chaoslib raises)', { path: '$', target: 'body' }, 'x'],
    ] as [string, Json, unknown, Json?][]
  ).map(([name, tolerance, value, configuration]) => ({
    name,
    tolerance: { type: 'jsonpath', ...tolerance },
    value,
    ...(configuration ? { configuration } : {}),
  })),
  {
    name: 'a count in a string (chaoslib: never met)',
    tolerance: { type: 'jsonpath', path: '$.foo[*]', count: '2' },
    value: MIXED,
    differs: { decision: 'D161', chaoskit: 'refused' },
  },
];

let chaoslib: Said[];

beforeAll(async () => {
  const chaos = await ensurePythonOriginals((line) => console.log(line));
  const python = join(dirname(chaos), 'python');
  const child = run(python, ['-c', ORACLE], { maxBuffer: 1 << 28 });
  child.child.stdin?.end(
    JSON.stringify(cases.map(({ tolerance, value, configuration }) => ({ tolerance, value, configuration }))),
  );
  chaoslib = JSON.parse((await child).stdout) as Said[];
}, 1_200_000);

const WHERE = "steady-state probe 'jsonpath'";

describe(`${cases.length} JSONPath tolerances through chaoslib's and chaoskit's validation and check`, () => {
  it.each(cases.map((c, i) => [c.name, i] as const))('%s', async (_name, i) => {
    const { tolerance, value, configuration, differs } = cases[i] as Case;
    const theirs = chaoslib[i] as Said;
    const problem = validateTolerance(tolerance, WHERE);
    if (differs) {
      // chaoslib takes it and never meets it (or fails on it): chaoskit refuses it up front.
      expect(theirs.valid).toBe(true);
      expect(theirs.met === true, JSON.stringify(theirs)).toBe(false);
      expect(problem).toMatch(/^steady-state probe 'jsonpath': /);
      return;
    }
    expect(problem === undefined, `chaoslib: ${JSON.stringify(theirs)}; chaoskit: ${problem}`).toBe(
      theirs.valid,
    );
    if (!theirs.valid) {
      expect(problem).toMatch(
        /^steady-state probe 'jsonpath': tolerance\.path '.*' is not a JSONPath chaoslib reads/,
      );
      return;
    }
    const ctx = { configuration: configuration ?? {} };
    // What chaoslib raises on is not met in chaoskit (withinTolerance never throws).
    const met = theirs.met === true;
    await expect(withinTolerance(tolerance, value, ctx), JSON.stringify(theirs)).resolves.toBe(met);
    if (!Array.isArray(theirs.values)) return;
    // The same values, in the same order: chaoslib's own values, as an `expect`, are met.
    const found = { ...tolerance, expect: theirs.values, count: undefined };
    await expect(
      withinTolerance(found, value, ctx),
      `chaoslib found ${JSON.stringify(theirs.values)} (${theirs.values.map(kinds).join(', ')})`,
    ).resolves.toBe(true);
  });
});
