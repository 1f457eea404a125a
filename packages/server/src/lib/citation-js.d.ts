// @citation-js ships no types; these are the calls Cairn makes (citation.js.org/api/0.7): the
// metadata import reads BibTeX and RIS through it, the export tests read CITATION.cff.
declare module '@citation-js/core' {
  export class Cite {
    static async(data: unknown): Promise<Cite>;
    readonly data: unknown[];
  }
  export const plugins: {
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
declare module '@citation-js/plugin-ris';
declare module '@citation-js/plugin-cff';
