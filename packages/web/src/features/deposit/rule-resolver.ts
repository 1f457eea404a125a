import { toNestErrors } from '@hookform/resolvers';
import { formRuleOf } from '@cairn/shared';
import type { TFunction } from 'i18next';
import type { FieldError, FieldValues, Resolver } from 'react-hook-form';
import type { z } from 'zod';

/**
 * Where the message of an issue at `path` (the schema's path) is shown: a field of the dialog,
 * or undefined for the dotted path itself.
 */
export type FieldOf = (path: readonly PropertyKey[]) => string | undefined;

/**
 * An issue's message in the page's language: a dialog rule of `@cairn/shared` (form-rules.ts) is
 * worded again from its translation with the same values, anything else keeps the schema's own
 * message, as the server's messages do.
 */
export function ruleMessage(t: TFunction, issue: z.core.$ZodIssue): string {
  const params = formRuleOf(issue);
  if (!params) return issue.message;
  const values: Record<string, unknown> = params;
  return t(`formRules.${params.rule}`, values);
}

/**
 * The translated message of each field `schema` finds a problem in `value` at, keyed by
 * `fieldOf` (default: the issue's dotted path); the first problem of a field wins. Empty when
 * `value` passes.
 */
export function ruleMessages(
  schema: z.ZodType,
  value: unknown,
  t: TFunction,
  fieldOf: FieldOf = () => undefined,
): Record<string, string> {
  const result = schema.safeParse(value);
  const messages: Record<string, string> = {};
  for (const issue of result.error?.issues ?? []) {
    const field = fieldOf(issue.path) ?? issue.path.map(String).join('.');
    messages[field] ??= ruleMessage(t, issue);
  }
  return messages;
}

/**
 * A React Hook Form resolver that checks a dialog's values with one of shared's form schemas:
 * `toInput` turns the dialog's own values into the shape the schema checks (the form's), and
 * `fieldOf` says under which of the dialog's fields each problem shows. Valid values pass through
 * unchanged; the caller converts them when it saves.
 */
export function ruleResolver<TValues extends FieldValues>(
  schema: z.ZodType,
  t: TFunction,
  { toInput, fieldOf }: { toInput: (values: TValues) => unknown; fieldOf?: FieldOf },
): Resolver<TValues> {
  return (values, _context, options) => {
    const messages = ruleMessages(schema, toInput(values), t, fieldOf);
    const entries = Object.entries(messages);
    if (entries.length === 0) return { values, errors: {} };
    const flat: Record<string, FieldError> = {};
    for (const [field, message] of entries) flat[field] = { type: 'rule', message };
    return { values: {}, errors: toNestErrors(flat, options) };
  };
}
