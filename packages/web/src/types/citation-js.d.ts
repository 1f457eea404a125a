// @citation-js ships no types; these are the calls Cairn makes (citation.js.org/api/0.7).
declare module '@citation-js/core' {
  export class Cite {
    constructor(data: unknown);
    format(
      format: 'bibliography' | 'citation' | 'data',
      options?: { format?: 'text' | 'html'; template?: string; lang?: string },
    ): string;
  }
  export const plugins: {
    config: {
      get(name: '@csl'): { templates: { add(name: string, xml: string): void } };
    };
  };
}
declare module '@citation-js/plugin-csl';
