import type { FastifyInstance } from 'fastify';
import type { ErrorItem } from '@cairn/shared';
import { validationFailed } from '../errors.js';
import { refusedTextProblem, shownText } from '../lib/client-text.js';

/** Path parameters as the contract names them: a route's `*` is a file key. */
function parameterName(name: string): string {
  return name === '*' ? 'key' : name;
}

/**
 * Refuses query parameters and path parameters holding text that is not well-formed Unicode or
 * holds U+0000 (400 naming each), before any route reads them: the same rule JSON bodies follow
 * (`parseClientJson`), so no text enters that an engine could not store or hand back.
 */
export function refuseUnstorableParameters(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => {
    const errors: ErrorItem[] = [];
    const check = (name: string, values: unknown) => {
      const problem =
        refusedTextProblem(name) ??
        (Array.isArray(values) ? values : [values])
          .map((value) => (typeof value === 'string' ? refusedTextProblem(value) : undefined))
          .find((found) => found !== undefined);
      if (problem) errors.push({ field: shownText(name), messages: [problem] });
    };
    for (const [name, value] of Object.entries(request.params ?? {}))
      check(parameterName(name), value);
    for (const [name, value] of Object.entries(request.query ?? {})) check(name, value);
    if (errors.length > 0) done(validationFailed(errors));
    else done();
  });
}
