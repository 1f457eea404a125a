import { describe, expect, it } from 'vitest';
import { groupResourceTypes } from './resource-type-groups';

const name = (type: string, subtype: string) => `${type}: ${subtype}`;

describe('groupResourceTypes', () => {
  it('names each subtype with its type and groups a type with its subtypes', () => {
    const grouped = groupResourceTypes(
      [
        { value: 'dataset', label: 'Dataset' },
        { value: 'image', label: 'Image' },
        { value: 'image-other', label: 'Other' },
        { value: 'image-photo', label: 'Photo' },
        { value: 'other', label: 'Other' },
        { value: 'publication', label: 'Publication' },
        { value: 'publication-other', label: 'Other' },
        { value: 'publication-article', label: 'Journal article' },
      ],
      name,
    );
    expect(grouped).toEqual([
      { value: 'dataset', label: 'Dataset' },
      {
        group: 'Image',
        items: [
          { value: 'image', label: 'Image' },
          { value: 'image-other', label: 'Image: Other' },
          { value: 'image-photo', label: 'Image: Photo' },
        ],
      },
      { value: 'other', label: 'Other' },
      {
        group: 'Publication',
        items: [
          { value: 'publication', label: 'Publication' },
          { value: 'publication-article', label: 'Publication: Journal article' },
          { value: 'publication-other', label: 'Publication: Other' },
        ],
      },
    ]);
  });

  it('keeps a subtype whose type is not offered under its own label', () => {
    expect(groupResourceTypes([{ value: 'image-photo', label: 'Photo' }], name)).toEqual([
      { value: 'image-photo', label: 'Photo' },
    ]);
  });
});
