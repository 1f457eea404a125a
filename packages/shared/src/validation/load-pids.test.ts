import { describe, expect, it } from 'vitest';
import { loadRecord } from './load-record.js';
import type { Pids } from '../domain/pids.js';
import { buildRecordData, buildValidationOptions } from '../test/builders.js';
import { byField } from '../test/field-errors.js';

const options = buildValidationOptions();

function loadPids(pids: unknown, previous?: Pids) {
  const record = buildRecordData();
  const previousData = previous === undefined ? undefined : { ...record, pids: previous };
  const { data, errors } = loadRecord({ ...record, pids }, options, previousData);
  return { pids: data.pids, errors: byField(errors) };
}

describe('pids', () => {
  it('normalises an external DOI', () => {
    const { pids, errors } = loadPids({
      doi: { identifier: 'https://doi.org/10.4321/1', provider: 'external' },
    });
    expect(errors).toEqual({});
    expect(pids).toEqual({ doi: { identifier: '10.4321/1', provider: 'external' } });
  });

  it('reports an invalid external DOI but keeps it, so publish cannot mint a DOI instead', () => {
    const { pids, errors } = loadPids({ doi: { identifier: 'not-a-doi', provider: 'external' } });
    expect(errors).toEqual({ 'pids.doi': ['Invalid DOI identifier.'] });
    expect(pids).toEqual({ doi: { identifier: 'not-a-doi', provider: 'external' } });
  });

  it('reports an empty external DOI and keeps the choice', () => {
    const { pids, errors } = loadPids({ doi: { identifier: '', provider: 'external' } });
    expect(errors).toEqual({ 'pids.doi': ['Missing DOI for required field.'] });
    expect(pids).toEqual({ doi: { identifier: '', provider: 'external' } });
  });

  it('checks only the shape of managed PIDs', () => {
    const managed = {
      doi: { identifier: '10.1234/abc-123', provider: 'datacite', client: 'datacite' },
    };
    expect(loadPids(managed)).toEqual({ pids: managed, errors: {} });
    expect(loadPids({ doi: { identifier: '10.1234/x' } }).errors).toEqual({
      'pids.doi.provider': ['Missing data for required field.'],
    });
    expect(loadPids({ doi: { identifier: 5, provider: 'datacite' } }).errors).toEqual({
      'pids.doi.identifier': ['Not a valid string.'],
    });
    expect(loadPids({ oai: 'oai:x' }).errors).toEqual({ 'pids.oai': ['Invalid input type.'] });
  });

  it('reports and drops schemes other than doi and oai', () => {
    const { pids, errors } = loadPids({
      doi: { identifier: '10.4321/1', provider: 'external' },
      ark: { identifier: 'ark:/1/2', provider: 'external' },
    });
    expect(errors).toEqual({ pids: ['Invalid PID scheme.'] });
    expect(pids).toEqual({ doi: { identifier: '10.4321/1', provider: 'external' } });
  });

  it('keeps the previous PIDs when omitted, and clears them when sent as {}', () => {
    const previous = { doi: { identifier: '10.1234/reserved', provider: 'datacite' } };
    expect(loadPids(undefined, previous).pids).toEqual(previous);
    expect(loadPids({}, previous).pids).toEqual({});
    expect(loadPids(undefined).pids).toEqual({});
  });

  it('must be an object', () => {
    expect(loadPids(['doi']).errors).toEqual({ pids: ['Invalid input type.'] });
  });
});

describe('files', () => {
  function loadFiles(files: unknown) {
    const record = buildRecordData();
    const { data, errors } = loadRecord({ ...record, files }, options);
    return { files: data.files, errors: byField(errors) };
  }

  it('defaults enabled to true', () => {
    expect(loadFiles(undefined)).toEqual({ files: { enabled: true }, errors: {} });
    expect(loadFiles({ default_preview: 'a.pdf' })).toEqual({
      files: { enabled: true, default_preview: 'a.pdf' },
      errors: {},
    });
  });

  it('keeps enabled false (metadata-only)', () => {
    expect(loadFiles({ enabled: false }).files).toEqual({ enabled: false });
  });

  it('needs a boolean enabled and a string default_preview', () => {
    expect(loadFiles({ enabled: 'false', default_preview: 3 })).toEqual({
      files: { enabled: true },
      errors: {
        'files.enabled': ['Not a valid boolean.'],
        'files.default_preview': ['Not a valid string.'],
      },
    });
  });
});
