// @citation-js ships no types; these are the calls the export tests make (citation.js.org/api/0.7).
declare module '@citation-js/core' {
  export class Cite {
    static async(data: unknown): Promise<Cite>;
    readonly data: unknown[];
  }
}
declare module '@citation-js/plugin-cff';
