import { describe, expect, it } from 'vitest';
import { loadRecord } from './load-record.js';
import type { Access } from '../domain/access.js';
import { buildRecordData, buildValidationOptions } from '../test/builders.js';
import { byField } from '../test/field-errors.js';

// today is 2025-06-15
const options = buildValidationOptions();

function loadAccess(access: unknown, previous?: Access) {
  const record = buildRecordData();
  const previousData = previous === undefined ? undefined : { ...record, access: previous };
  const { data, errors } = loadRecord({ ...record, access }, options, previousData);
  return { access: data.access, errors: byField(errors) };
}

describe('record and files', () => {
  it('accept public and restricted', () => {
    const { access, errors } = loadAccess({ record: 'public', files: 'restricted' });
    expect(errors).toEqual({});
    expect(access).toEqual({ record: 'public', files: 'restricted', embargo: { active: false } });
  });

  it('reject anything else, keeping the previous value', () => {
    const { access, errors } = loadAccess(
      { record: 'secret', files: 'open' },
      { record: 'restricted', files: 'restricted', embargo: { active: false } },
    );
    expect(errors).toEqual({
      'access.record': ["'record' must be either 'public' or 'restricted'"],
      'access.files': ["'files' must be either 'public' or 'restricted'"],
    });
    expect(access).toEqual({
      record: 'restricted',
      files: 'restricted',
      embargo: { active: false },
    });
  });

  it('are required when access is sent; a new record falls back to public', () => {
    const { access, errors } = loadAccess({ embargo: { active: false } });
    expect(errors).toEqual({
      'access.record': ['Missing data for required field.'],
      'access.files': ['Missing data for required field.'],
    });
    expect(access).toEqual({ record: 'public', files: 'public', embargo: { active: false } });
  });

  it('force restricted files on a restricted record, silently', () => {
    const { access, errors } = loadAccess({ record: 'restricted', files: 'public' });
    expect(errors).toEqual({});
    expect(access.files).toBe('restricted');
  });

  it('default to public/public with no embargo for a new record that sends no access', () => {
    const { access, errors } = loadAccess(undefined);
    expect(errors).toEqual({});
    expect(access).toEqual({ record: 'public', files: 'public', embargo: { active: false } });
  });

  it('must be an object', () => {
    expect(loadAccess('public').errors).toEqual({ access: ['Invalid input type.'] });
  });
});

describe('embargo', () => {
  const restricted = (embargo: unknown) => ({ record: 'public', files: 'restricted', embargo });

  it('active with a future end date is fine and kept', () => {
    const { access, errors } = loadAccess(
      restricted({ active: true, until: '2025-06-16', reason: 'Patent' }),
    );
    expect(errors).toEqual({});
    expect(access.embargo).toEqual({ active: true, until: '2025-06-16', reason: 'Patent' });
  });

  it.each([
    ['today', '2025-06-15'],
    ['yesterday', '2025-06-14'],
  ])('active needs an end date after today, not %s', (_label, until) => {
    const { access, errors } = loadAccess(restricted({ active: true, until }));
    expect(errors).toEqual({
      'access.embargo.until': ['Embargo end date must be set to a future date.'],
    });
    // Kept as typed, so publish stays blocked until the depositor fixes it.
    expect(access.embargo).toEqual({ active: true, until });
  });

  it('active needs an end date at all', () => {
    expect(loadAccess(restricted({ active: true })).errors).toEqual({
      'access.embargo.until': ['Embargo end date must be set to a future date.'],
    });
  });

  it('inactive needs no end date, or one not in the future', () => {
    expect(loadAccess(restricted({ active: false })).errors).toEqual({});
    expect(loadAccess(restricted({ active: false, until: '2025-06-15' })).errors).toEqual({});
    expect(loadAccess(restricted({ active: false, until: '2025-06-16' })).errors).toEqual({
      'access.embargo.until': ['Embargo end date must be unset or in the past.'],
    });
  });

  it('needs the record or the files restricted', () => {
    expect(
      loadAccess({
        record: 'public',
        files: 'public',
        embargo: { active: true, until: '2030-01-01' },
      }).errors,
    ).toEqual({
      'access.embargo': ['Record or files protection must be restricted to apply an embargo.'],
    });
    expect(
      loadAccess({
        record: 'restricted',
        files: 'restricted',
        embargo: { active: true, until: '2030-01-01' },
      }).errors,
    ).toEqual({});
  });

  it('needs a YYYY-MM-DD end date and a boolean active', () => {
    const { access, errors } = loadAccess(restricted({ active: 'yes', until: '01/01/2030' }));
    expect(errors).toEqual({
      'access.embargo.active': ['Not a valid boolean.'],
      'access.embargo.until': ['Not a valid date.'],
    });
    expect(access.embargo).toEqual({ active: false });
  });

  it('merges every problem of one field into one item', () => {
    const { errors } = loadAccess(restricted({ active: true, until: '2030-02-30' }));
    expect(errors).toEqual({
      'access.embargo.until': [
        'Not a valid date.',
        'Embargo end date must be set to a future date.',
      ],
    });
  });
});
