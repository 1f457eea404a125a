import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  assetsBeforeData,
  LATER_STRINGS_MODULE,
  PAGE_MODULES,
  pagePreloads,
  type BuildManifest,
} from './page-assets.js';

/**
 * A manifest in which every page is its own chunk importing nothing, and so are the later
 * pages' strings, plus `extra`.
 */
function manifestWith(extra: BuildManifest): BuildManifest {
  const pages = Object.fromEntries(
    Object.values(PAGE_MODULES).map((source) => [source, { file: `assets/${source}.js` }]),
  );
  return { ...pages, [LATER_STRINGS_MODULE]: { file: 'assets/en_US.later.js' }, ...extra };
}

const laterStrings = `<link rel="modulepreload" crossorigin href="/assets/en_US.later.js">`;

const link = (file: string) => `<link rel="modulepreload" crossorigin href="/${file}">`;

describe('pagePreloads', () => {
  it("preloads a page's chunk and what it imports, directly or not, but not the entry's", () => {
    const manifest = manifestWith({
      'index.html': { file: 'assets/index.js', isEntry: true, imports: ['_app.js'] },
      '_app.js': { file: 'assets/app.js', imports: ['_react.js'] },
      '_react.js': { file: 'assets/react.js' },
      '_tables.js': { file: 'assets/tables.js', imports: ['_react.js', '_sanitize.js'] },
      '_sanitize.js': { file: 'assets/sanitize.js', imports: ['_tables.js'] },
      [PAGE_MODULES.record]: {
        file: 'assets/RecordPage.js',
        imports: ['_app.js', '_tables.js', '_react.js'],
      },
    });
    expect(pagePreloads(manifest).record).toEqual([
      link('assets/RecordPage.js'),
      link('assets/tables.js'),
      link('assets/sanitize.js'),
      laterStrings,
    ]);
    expect(pagePreloads(manifest).login).toEqual([
      link(`assets/${PAGE_MODULES.login}.js`),
      laterStrings,
    ]);
  });

  it("preloads the stylesheets of a page's chunks, each once, but not the entry's", () => {
    const manifest = manifestWith({
      'index.html': { file: 'assets/index.js', isEntry: true, imports: ['_app.js'] },
      '_app.js': { file: 'assets/app.js', css: ['assets/app.css'] },
      '_dropzone.js': { file: 'assets/dropzone.js', css: ['assets/dropzone.css'] },
      '_dnd.js': { file: 'assets/dnd.js', imports: ['_dropzone.js'], css: ['assets/dropzone.css'] },
      [PAGE_MODULES.deposit]: {
        file: 'assets/DepositPage.js',
        imports: ['_app.js', '_dnd.js'],
        css: ['assets/DepositPage.css'],
      },
    });
    expect(pagePreloads(manifest).deposit).toEqual([
      link('assets/DepositPage.js'),
      link('assets/dnd.js'),
      link('assets/dropzone.js'),
      '<link rel="preload" as="style" crossorigin href="/assets/DepositPage.css">',
      '<link rel="preload" as="style" crossorigin href="/assets/dropzone.css">',
    ]);
  });

  it("leaves the later pages' strings to the deposit page's own choice", () => {
    expect(pagePreloads(manifestWith({})).deposit).toEqual([
      link(`assets/${PAGE_MODULES.deposit}.js`),
    ]);
  });

  it('refuses a build without the later strings', () => {
    const manifest = manifestWith({});
    delete manifest[LATER_STRINGS_MODULE];
    expect(() => pagePreloads(manifest)).toThrow(
      'The web build has no chunk for src/i18n/locales/en_US.later.json',
    );
  });

  it('refuses a build without one of the pages', () => {
    const manifest = manifestWith({});
    delete manifest[PAGE_MODULES.request];
    expect(() => pagePreloads(manifest)).toThrow(
      'The web build has no chunk for src/features/requests/RequestPage.tsx (page "request")',
    );
  });

  it("names the same page modules as the web app's router", () => {
    const routes = fs.readFileSync(
      fileURLToPath(new URL('../../../../web/src/app/routes.tsx', import.meta.url)),
      'utf8',
    );
    const imported = [...routes.matchAll(/import\('\.\.\/(features\/[^']+)'\)/g)].map(
      (match) => `src/${match[1]}.tsx`,
    );
    expect(imported.sort()).toEqual(Object.values(PAGE_MODULES).sort());
    // …and the deposit page is the one that does without the later strings, which the web
    // app's i18n fetches from this module.
    expect(routes.split('ownStringsOnly: true').length).toBe(2);
    expect(routes).toMatch(
      /deposit: lazyPage\(\(\) => import\('\.\.\/features\/deposit\/DepositPage'\)[^;]*?ownStringsOnly: true/s,
    );
    const i18n = fs.readFileSync(
      fileURLToPath(new URL('../../../../web/src/i18n/i18n.ts', import.meta.url)),
      'utf8',
    );
    expect(i18n).toContain(`import('./${LATER_STRINGS_MODULE.replace('src/i18n/', '')}')`);
  });
});

describe('assetsBeforeData', () => {
  it('moves the links after the marker before it, and leaves the entry script after it', () => {
    const shell = [
      '<head>',
      '<title>x</title>',
      '<!--m-->',
      '<script type="module" async src="/assets/index.js"></script>',
      '<link rel="modulepreload" href="/assets/react.js">',
      '<link rel="stylesheet" href="/assets/app.css">',
      '</head><body></body>',
    ].join('\n');
    expect(assetsBeforeData(shell, '<!--m-->')).toBe(
      [
        '<head>',
        '<title>x</title>',
        '<link rel="modulepreload" href="/assets/react.js">',
        '<link rel="stylesheet" href="/assets/app.css">',
        '<!--m-->',
        '<script type="module" async src="/assets/index.js"></script>',
        '</head><body></body>',
      ].join('\n'),
    );
  });

  it('refuses a shell without the marker in its head', () => {
    expect(() => assetsBeforeData('<head></head><!--m-->', '<!--m-->')).toThrow(
      'index.html has no <!--m--> in its head',
    );
  });
});
