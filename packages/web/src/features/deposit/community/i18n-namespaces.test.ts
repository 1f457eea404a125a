import { describe, expect, it } from 'vitest';
import de from '../../../i18n/locales/de.json';
import enUS from '../../../i18n/locales/en_US.json';

const NAMESPACES = ['depositCommunity', 'depositAccess', 'depositPids', 'customFields'] as const;

/** Every leaf key of a nested translation object, as a dotted path. */
function keysOf(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([key, child]) =>
    keysOf(child, prefix ? `${prefix}.${key}` : key),
  );
}

function leaf(source: unknown, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], source);
}

describe.each(NAMESPACES)('the %s translations', (namespace) => {
  it('are complete in German, every text translated and non-empty', () => {
    const english = keysOf(enUS[namespace]);
    expect(keysOf(de[namespace])).toEqual(english);
    for (const path of english) {
      expect(leaf(de[namespace], path), path).not.toBe('');
    }
  });

  it('keep i18next’s placeholders in German', () => {
    const placeholders = (text: string) => [...text.matchAll(/{{(\w+)}}/g)].map((m) => m[1]).sort();
    for (const path of keysOf(enUS[namespace])) {
      expect(placeholders(String(leaf(de[namespace], path))), path).toEqual(
        placeholders(String(leaf(enUS[namespace], path))),
      );
    }
  });
});
