import { describe, expect, it } from 'vitest';
import { edtfProblem, formatEdtfDate, isEdtfDate, isIsoDay } from './edtf.js';

describe('isEdtfDate', () => {
  it.each([
    '2020',
    '2020-06',
    '2020-06-01',
    '2020-02-29',
    '0999',
    '1939/1945',
    '2018/2020-09',
    '2020-06/2020',
    '2020-06-01/2020-06-01',
  ])('accepts %s', (value) => {
    expect(isEdtfDate(value)).toBe(true);
  });

  it.each([
    ['2020-13', 'month 13'],
    ['2020-00', 'month 0'],
    ['2020-02-30', 'February 30'],
    ['2021-02-29', 'February 29 outside a leap year'],
    ['1900-02-29', 'February 29 in a century year'],
    ['1945/1939', 'an interval that ends before it starts'],
    ['2020-06-01T10:00', 'a time'],
    ['2020-6-1', 'one-digit month and day'],
    ['20', 'a short year'],
    ['2020/', 'an open interval'],
    ['../2020', 'an unknown start'],
    ['2020/2021/2022', 'three dates'],
    ['', 'nothing'],
    ['June 2020', 'words'],
  ])('rejects %s (%s)', (value) => {
    expect(isEdtfDate(value)).toBe(false);
  });

  it('accepts 2000-02-29, a leap day in a year divisible by 400', () => {
    expect(isEdtfDate('2000-02-29')).toBe(true);
  });

  it('rejects intervals when they are not allowed', () => {
    expect(isEdtfDate('1939/1945', { allowInterval: false })).toBe(false);
    expect(isEdtfDate('1939', { allowInterval: false })).toBe(true);
  });
});

describe('isIsoDay', () => {
  it('accepts only full calendar days', () => {
    expect(isIsoDay('2031-01-01')).toBe(true);
    expect(isIsoDay('2031-01')).toBe(false);
    expect(isIsoDay('2031-02-31')).toBe(false);
    expect(isIsoDay('31.01.2031')).toBe(false);
  });
});

describe('edtfProblem', () => {
  it('tells an interval that ends before it starts from a malformed date', () => {
    expect(edtfProblem('1945/1939')).toBe('reversed');
    expect(edtfProblem('2020-06-02/2020-06-01')).toBe('reversed');
    expect(edtfProblem('1945/1939-13')).toBe('invalid');
    expect(edtfProblem('2020-13')).toBe('invalid');
    expect(edtfProblem('1939/1945', { allowInterval: false })).toBe('invalid');
    expect(edtfProblem('2020-06/2020')).toBeUndefined();
  });
});

describe('formatEdtfDate', () => {
  it.each([
    ['2026-11-26', 'de', 'long', '26. November 2026'],
    ['2026-11-26', 'en_US', 'long', 'November 26, 2026'],
    ['2026-11-26', 'de', 'medium', '26.11.2026'],
    ['2020-05', 'de', 'long', 'Mai 2020'],
    ['2020/2021-03', 'de', 'medium', '2020 – März 2021'],
    ['circa 1900', 'de', 'long', 'circa 1900'],
  ] as const)('words %s in %s (%s) as %s', (value, locale, style, expected) => {
    expect(formatEdtfDate(value, locale, style)).toBe(expected);
  });
});
