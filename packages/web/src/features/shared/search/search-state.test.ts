import { describe, expect, it } from 'vitest';
import {
  addressParamsOf,
  apiParamsOf,
  changeSearch,
  readSearchState,
  toggleFilter,
} from './search-state';

const read = (search: string) => readSearchState(new URLSearchParams(search));

describe('the search in the address', () => {
  it('reads every choice back as it was written', () => {
    const address =
      'q=ice+sheet&sort=oldest&page=3&size=50&resource_type=dataset&resource_type=image-photo' +
      '&access_status=open&publication_date=2021';
    const state = read(address);
    expect(state).toEqual({
      q: 'ice sheet',
      sort: 'oldest',
      page: 3,
      size: 50,
      filters: {
        resource_type: ['dataset', 'image-photo'],
        access_status: ['open'],
        publication_date: ['2021'],
      },
    });
    expect(addressParamsOf(state).toString()).toBe(address);
    expect(readSearchState(addressParamsOf(state))).toEqual(state);
  });

  it('gives the API the same names and values, the defaults spelt out', () => {
    expect(apiParamsOf(read('resource_type=dataset&resource_type=image')).toString()).toBe(
      'sort=newest&page=1&size=10&resource_type=dataset&resource_type=image',
    );
    expect(apiParamsOf(read('q=ice&size=20&page=2')).toString()).toBe(
      'q=ice&sort=bestmatch&page=2&size=20',
    );
  });

  it('falls back to the defaults for values the page does not offer', () => {
    const state = read('sort=mostviewed&page=0&size=7&resource_type=&language=eng&language=eng');
    expect(state).toEqual({ q: '', sort: null, page: 1, size: 10, filters: { language: ['eng'] } });
    expect(addressParamsOf(state).toString()).toBe('language=eng');
    // Best match without a query ranks nothing: newest instead.
    expect(apiParamsOf(read('sort=bestmatch')).get('sort')).toBe('newest');
  });

  it('starts again at page 1 on any change but a page, and keeps a chosen sort', () => {
    const state = read('q=ice&sort=oldest&page=4');
    expect(addressParamsOf(changeSearch(state, { page: 5 })).toString()).toBe(
      'q=ice&sort=oldest&page=5',
    );
    expect(addressParamsOf(changeSearch(state, { q: 'snow' })).toString()).toBe(
      'q=snow&sort=oldest',
    );
    const filtered = changeSearch(state, {
      filters: toggleFilter(state.filters, 'resource_type', 'dataset', true),
    });
    expect(addressParamsOf(filtered).toString()).toBe('q=ice&sort=oldest&resource_type=dataset');
    expect(
      changeSearch(filtered, {
        filters: toggleFilter(filtered.filters, 'resource_type', 'dataset', false),
      }).filters,
    ).toEqual({});
  });

  it('lets the sort follow the query again once the reader picks its default', () => {
    const picked = changeSearch(read('q=ice'), { sort: 'newest' });
    expect(addressParamsOf(picked).toString()).toBe('q=ice&sort=newest');
    const back = changeSearch(picked, { sort: 'bestmatch' });
    expect(addressParamsOf(back).toString()).toBe('q=ice');
    expect(apiParamsOf(changeSearch(back, { q: '' })).get('sort')).toBe('newest');
  });

  it('drops a facet the page fixes, so that it is neither sent nor kept in the address', () => {
    const state = readSearchState(
      new URLSearchParams('q=ice&community=arctic&resource_type=dataset'),
      ['resource_type', 'access_status'],
    );
    expect(state.filters).toEqual({ resource_type: ['dataset'] });
    expect(apiParamsOf(state).getAll('community')).toEqual([]);
    expect(addressParamsOf(changeSearch(state, { page: 2 })).toString()).toBe(
      'q=ice&page=2&resource_type=dataset',
    );
  });
});
