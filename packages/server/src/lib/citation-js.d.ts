// @citation-js ships no types; these are the calls Cairn makes (citation.js.org/api/0.7): the
// metadata import reads BibTeX and RIS through it, `text/x-bibliography` formats citations with
// its CSL plugin, the export tests read CITATION.cff.
declare module '@citation-js/core' {
  export class Cite {
    constructor(data: unknown);
    static async(data: unknown): Promise<Cite>;
    readonly data: unknown[];
    format(
      format: 'bibliography',
      options: { format: 'text'; template: string; lang?: string },
    ): string;
  }
  export const plugins: {
    config: {
      get(name: '@csl'): {
        templates: { add(name: string, xml: string): void };
        locales: { has(name: string): boolean; list(): string[] };
      };
    };
    input: {
      chain(
        data: unknown,
        options: { target?: string; forceType?: string; generateGraph?: boolean },
      ): unknown;
      type(data: unknown): string;
    };
  };
}
declare module '@citation-js/plugin-bibtex';
declare module '@citation-js/plugin-csl';
declare module '@citation-js/plugin-ris';
declare module '@citation-js/plugin-cff';
