import { describe, expect, it } from 'vitest';
import { parseRange } from './http-range.js';

const range = (start: number, end: number) => ({ kind: 'range', start, end });
const none = { kind: 'none' };
const unsatisfiable = { kind: 'unsatisfiable' };

describe('parseRange', () => {
  it('is none without a header', () => {
    expect(parseRange(undefined, 100)).toEqual(none);
    expect(parseRange('', 100)).toEqual(none);
    expect(parseRange('   ', 100)).toEqual(none);
  });

  it.each([
    ['bytes=0-9', range(0, 9)],
    ['bytes=0-0', range(0, 0)],
    ['bytes=99-99', range(99, 99)],
    ['bytes=10-19', range(10, 19)],
    ['bytes=0-99', range(0, 99)],
    ['bytes=5-', range(5, 99)],
    ['bytes=0-', range(0, 99)],
    ['bytes=99-', range(99, 99)],
    ['bytes=-5', range(95, 99)],
    ['bytes=-1', range(99, 99)],
    ['bytes=-100', range(0, 99)],
  ])('reads %s on 100 bytes', (header, expected) => {
    expect(parseRange(header, 100)).toEqual(expected);
  });

  it('clamps a last position past the end', () => {
    expect(parseRange('bytes=90-100', 100)).toEqual(range(90, 99));
    expect(parseRange('bytes=0-1000000', 100)).toEqual(range(0, 99));
    expect(parseRange('bytes=0-99999999999999999999999', 100)).toEqual(range(0, 99));
  });

  it('serves the whole body for a suffix longer than the body', () => {
    expect(parseRange('bytes=-5', 3)).toEqual(range(0, 2));
    expect(parseRange('bytes=-1000', 1)).toEqual(range(0, 0));
  });

  it('is unsatisfiable when the first position is at or past the end', () => {
    expect(parseRange('bytes=100-', 100)).toEqual(unsatisfiable);
    expect(parseRange('bytes=100-200', 100)).toEqual(unsatisfiable);
    expect(parseRange('bytes=5000-', 100)).toEqual(unsatisfiable);
    expect(parseRange('bytes=99999999999999999999999-', 100)).toEqual(unsatisfiable);
  });

  it('is unsatisfiable for a zero-length suffix', () => {
    expect(parseRange('bytes=-0', 100)).toEqual(unsatisfiable);
  });

  it.each(['bytes=0-9', 'bytes=0-', 'bytes=0-0', 'bytes=-0'])(
    'is unsatisfiable on an empty body: %s',
    (header) => {
      expect(parseRange(header, 0)).toEqual(unsatisfiable);
    },
  );

  // A suffix of non-zero length is satisfiable on any body, an empty one included; what it
  // selects is then the whole (empty) body, which only a 200 can carry.
  it.each(['bytes=-5', 'bytes=-1', 'bytes=0-9,-5'])('is the whole empty body for %s', (header) => {
    expect(parseRange(header, 0)).toEqual(none);
  });

  it.each([
    'bytes=abc',
    'bytes=9-3',
    'items=0-1',
    'bytes',
    'bytes=',
    'bytes=,',
    'bytes=-',
    'bytes=1',
    'bytes=--5',
    'bytes=1-2-3',
    'bytes=+1-2',
    'bytes=1.5-2',
    'bytes=0x10-20',
    'bytes=1 - 2',
    'bytes=-5-',
    '=0-1',
    '0-1',
    'bytes=0-1,abc',
  ])('is unsatisfiable for the malformed %j (as InvenioRDM answers)', (header) => {
    expect(parseRange(header, 100)).toEqual(unsatisfiable);
  });

  it('accepts the unit in any case and whitespace around the specs', () => {
    expect(parseRange('Bytes=0-9', 100)).toEqual(range(0, 9));
    expect(parseRange('BYTES=0-9', 100)).toEqual(range(0, 9));
    expect(parseRange(' bytes = 0-9 ', 100)).toEqual(range(0, 9));
  });

  it('ignores empty list elements', () => {
    expect(parseRange('bytes=0-9,', 100)).toEqual(range(0, 9));
    expect(parseRange('bytes=, 0-9 ,,', 100)).toEqual(range(0, 9));
  });

  it('serves the whole body for several ranges', () => {
    expect(parseRange('bytes=0-1,4-5', 100)).toEqual(none);
    expect(parseRange('bytes=0-1, -5', 100)).toEqual(none);
    expect(parseRange('bytes=0-1,200-300', 100)).toEqual(none);
  });
});
