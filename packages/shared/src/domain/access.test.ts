import { describe, expect, it } from 'vitest';
import { DEFAULT_ACCESS, computeAccessStatus, type Access } from './access.js';

const access = (record: Access['record'], files: Access['files'], active = false): Access => ({
  record,
  files,
  embargo: active ? { active, until: '2031-01-01' } : { active },
});

describe('computeAccessStatus', () => {
  it('is embargoed while an embargo is active, before anything else', () => {
    expect(computeAccessStatus(access('public', 'restricted', true), true)).toBe('embargoed');
    expect(computeAccessStatus(access('restricted', 'restricted', true), false)).toBe('embargoed');
  });

  it('is metadata-only for a public record without files', () => {
    expect(computeAccessStatus(access('public', 'public'), false)).toBe('metadata-only');
    expect(computeAccessStatus(access('public', 'restricted'), false)).toBe('metadata-only');
  });

  it('is open when record and files are public', () => {
    expect(computeAccessStatus(access('public', 'public'), true)).toBe('open');
  });

  it('is restricted otherwise', () => {
    expect(computeAccessStatus(access('public', 'restricted'), true)).toBe('restricted');
    expect(computeAccessStatus(access('restricted', 'restricted'), true)).toBe('restricted');
    expect(computeAccessStatus(access('restricted', 'restricted'), false)).toBe('restricted');
  });

  it('starts new records public with no embargo', () => {
    expect(DEFAULT_ACCESS).toEqual({
      record: 'public',
      files: 'public',
      embargo: { active: false },
    });
    expect(computeAccessStatus(DEFAULT_ACCESS, true)).toBe('open');
  });
});
