import { describe, expect, it } from 'vitest';
import { withFields } from './images.js';
import { covers, identify, parentsFirst, resolve } from './locate.js';
import { valueAt } from './pointers.js';

const routes = (...http: unknown[]) => ({ spec: { http } });

describe('a change located by what it is', () => {
  it('names a list item by its name, else its match, else its place in a list of that length', () => {
    const vs = routes(
      { name: 'ratings', match: [{ uri: { prefix: '/r' } }] },
      { match: [{ uri: { prefix: '/a' } }], fault: { abort: { httpStatus: 503 } } },
      { route: [{ destination: { host: 'x' } }] },
    );
    expect(identify(vs, '/spec/http/0/fault')).toBe('/spec/http/[name="ratings"]/fault');
    expect(identify(vs, '/spec/http/1/fault/abort')).toBe(
      '/spec/http/[match=[{"uri":{"prefix":"~1a"}}]]/fault/abort',
    );
    expect(identify(vs, '/spec/http/2/fault')).toBe(
      '/spec/http/[route=[{"destination":{"host":"x"}}]]/fault',
    );
    const twins = routes({ timeout: '1s' }, { timeout: '1s' });
    expect(identify(twins, '/spec/http/1/fault')).toBe('/spec/http/[#1~12]/fault');
  });

  it('finds the same route after a route is inserted above it', () => {
    const before = routes({ name: 'a' }, { name: 'b', fault: { abort: {} } });
    const at = identify(before, '/spec/http/1/fault');
    const after = routes({ name: 'new' }, { name: 'a' }, { name: 'b', fault: { abort: {} } });
    expect(resolve(after, at)).toEqual({ pointer: '/spec/http/2/fault' });
  });

  it('says why a change cannot be found: the item gone, several alike, a list of another length', () => {
    const at = identify(routes({ name: 'a' }, { name: 'b' }), '/spec/http/1/fault');
    expect(resolve(routes({ name: 'a' }), at)).toEqual({
      problem: '/spec/http: no item(s) with name "b"',
    });
    expect(resolve(routes({ name: 'b' }, { name: 'b' }), at)).toEqual({
      problem: '/spec/http: 2 item(s) with name "b"',
    });
    const place = identify(routes({}, {}), '/spec/http/1/fault');
    expect(resolve(routes({}, {}, {}), place)).toEqual({
      problem: '/spec/http: the list had 2 items and has 3, so item 1 cannot be told',
    });
    expect(resolve({ spec: {} }, at)).toEqual({ problem: '/spec/http: the list that held the item is gone' });
  });

  it('orders parents before children, and knows which covers which', () => {
    expect(parentsFirst(['/a/b/c', '/a', '/a/b'])).toEqual(['/a', '/a/b', '/a/b/c']);
    expect(covers('/a/b', '/a/b/c')).toBe(true);
    expect(covers('/a/b', '/a/bc')).toBe(false);
  });

  it('puts recorded values back by identity, creating the parents they need', () => {
    const now = routes({ name: 'new' }, { name: 'b' });
    const restored = withFields(now, {
      '/spec/http/[name="b"]/fault': { present: true, value: { abort: { httpStatus: 503 } } },
      '/spec/http/[name="b"]/fault/delay': { present: true, value: { fixedDelay: '1s' } },
    });
    expect(valueAt(restored, '/spec/http/1/fault')).toEqual({
      present: true,
      value: { abort: { httpStatus: 503 }, delay: { fixedDelay: '1s' } },
    });
    expect(now.spec.http[1]).toEqual({ name: 'b' });
  });
});
