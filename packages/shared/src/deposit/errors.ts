import type { Severity } from '../domain/field-error.js';

/*
 * Server validation errors on the form, as InvenioRDM's deposit form deserializes them: a list of
 * `{field, messages, severity?, description?}` items, grouped by field path and stored on the
 * fields.
 */

/**
 * One item of a wire `errors` list as clients receive it: the severity is not trusted to be one
 * of the known three (an unknown one is read as `error`, the safe side).
 */
export interface ServerFieldError {
  field: string;
  messages: readonly string[];
  severity?: string | undefined;
  description?: string | undefined;
}

/** The severity of an item: absent or unknown reads as `error`, as InvenioRDM reads it. */
export function severityOf(error: ServerFieldError): Severity {
  return error.severity === 'warning' || error.severity === 'info' ? error.severity : 'error';
}

/** What one field shows: its messages joined by a space, with the severity when one was sent. */
export interface FieldFeedback {
  message: string;
  severity?: Severity;
  description?: string;
}

/** A nested object mirroring the form, built from dotted paths (numeric segments are indexes). */
export type NestedErrors =
  { [key: string]: NestedErrors | string | FieldFeedback } | NestedErrors[];

/**
 * InvenioRDM's `deserializeErrors`: each item's dotted `field` is set in a nested object; an item
 * without `severity` becomes its messages joined by a space, one with a severity becomes
 * `{message, severity, description}`.
 */
export function deserializeErrors(errors: readonly ServerFieldError[]): NestedErrors {
  const root: Record<string, unknown> = {};
  for (const error of errors) {
    const segments = error.field.split('.');
    const message = error.messages.join(' ');
    const value: string | FieldFeedback = error.severity
      ? {
          message,
          severity: severityOf(error),
          ...(error.description ? { description: error.description } : {}),
        }
      : message;
    let node: Record<string, unknown> | unknown[] = root;
    segments.forEach((segment, index) => {
      const key = /^\d+$/.test(segment) ? Number(segment) : segment;
      const isLast = index === segments.length - 1;
      const container = node as Record<string | number, unknown>;
      if (isLast) {
        container[key] = value;
        return;
      }
      const nextIsIndex = /^\d+$/.test(segments[index + 1] ?? '');
      const existing = container[key];
      if (typeof existing !== 'object' || existing === null) {
        container[key] = nextIsIndex ? [] : {};
      }
      node = container[key] as Record<string, unknown> | unknown[];
    });
  }
  return root as NestedErrors;
}

/**
 * The field errors by form path, messages of one path joined by a space (InvenioRDM sends one
 * item per path, but two API paths may land on one form input, e.g. `resource_type` and
 * `resource_type.id`). The most severe severity of the group wins.
 */
export function groupErrorsByFormPath(
  errors: readonly ServerFieldError[],
): Map<string, FieldFeedback> {
  const grouped = new Map<
    string,
    { messages: string[]; severity?: Severity; description?: string }
  >();
  for (const error of errors) {
    const path = toFormPath(error.field);
    const group = grouped.get(path) ?? { messages: [] };
    group.severity = moreSevere(
      group.severity,
      error.severity ? severityOf(error) : undefined,
      group.messages.length === 0,
    );
    group.messages.push(...error.messages);
    if (error.description && !group.description) group.description = error.description;
    grouped.set(path, group);
  }
  return new Map(
    [...grouped].map(([path, group]) => [
      path,
      {
        message: group.messages.join(' '),
        ...(group.severity ? { severity: group.severity } : {}),
        ...(group.description ? { description: group.description } : {}),
      },
    ]),
  );
}

const SEVERITY_RANK: Record<Severity, number> = { info: 0, warning: 1, error: 2 };

/**
 * The severity of a group: none when no item sent one; else the highest, where an item without
 * severity is a schema error, i.e. `error` (InvenioRDM adds severities only to curation checks).
 */
function moreSevere(
  current: Severity | undefined,
  next: Severity | undefined,
  isFirst: boolean,
): Severity | undefined {
  if (isFirst) return next;
  if (current === undefined && next === undefined) return undefined;
  const a = current ?? 'error';
  const b = next ?? 'error';
  return SEVERITY_RANK[a] >= SEVERITY_RANK[b] ? a : b;
}

/** Vocabulary fields the form holds as the bare id: an error on `…type.id` belongs on `…type`. */
const VOCABULARY_PATH =
  /^(metadata\.resource_type|metadata\.languages\.\d+|metadata\.(additional_titles|additional_descriptions)\.\d+\.(type|lang)|metadata\.(creators|contributors)\.\d+\.role|metadata\.dates\.\d+\.type|metadata\.related_identifiers\.\d+\.(relation_type|resource_type))\.id$/;

/** Texts the form holds unwrapped: an error on `…title.en` belongs on `…title`. */
const LOCALIZED_PATH =
  /^(metadata\.rights\.\d+\.(title|description)|metadata\.funding\.\d+\.(funder|award)\.title)\.[a-zA-Z_-]+$/;

/** The form holds a funding url as `url`; the API as an `identifiers` entry. */
const FUNDING_URL_PATH = /^(metadata\.funding\.\d+\.(funder|award))\.identifiers(\..*)?$/;

/**
 * The form path of an API error path. Form paths equal API paths (form-values.ts) except where
 * the serializer reshapes a value; InvenioRDM leaves those errors unplaced (a known TODO there).
 */
export function toFormPath(field: string): string {
  const vocabulary = VOCABULARY_PATH.exec(field);
  if (vocabulary?.[1]) return vocabulary[1];
  const localized = LOCALIZED_PATH.exec(field);
  if (localized?.[1]) return localized[1];
  const fundingUrl = FUNDING_URL_PATH.exec(field);
  if (fundingUrl?.[1]) return `${fundingUrl[1]}.url`;
  return field;
}

/**
 * Whether errors stop publishing and submitting: any item without severity or with `error`, as
 * InvenioRDM's publish and submit-review refuse them. Curation warnings and hints do not block.
 */
export function hasBlockingErrors(errors: readonly ServerFieldError[] | undefined): boolean {
  return (errors ?? []).some((error) => severityOf(error) === 'error');
}
