import { describe, expect, it } from 'vitest';
import { nameFits } from './UserPicker';

describe('nameFits', () => {
  it('takes every word typed as part of the name, whatever the case and accents', () => {
    expect(nameFits('Grace Keys', 'grace k')).toBe(true);
    expect(nameFits('Émilie du Châtelet', 'emilie chat')).toBe(true);
    expect(nameFits('Grace Colleague', 'Grace Keys')).toBe(false);
    expect(nameFits('Grace Keys', '  ')).toBe(true);
  });
});
