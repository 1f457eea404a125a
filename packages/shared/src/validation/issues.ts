import type { FieldError } from '../domain/field-error.js';

/**
 * Collects problems while a record is read, merging every message for one field into one item so
 * that the wire format never repeats a field. Insertion order is kept, which is reading order.
 */
export class Issues {
  private readonly byField = new Map<string, string[]>();

  /** Records `message` for `field`; the same message twice for one field is kept once. */
  add(field: string, message: string): void {
    const messages = this.byField.get(field);
    if (messages === undefined) {
      this.byField.set(field, [message]);
    } else if (!messages.includes(message)) {
      messages.push(message);
    }
  }

  /** True when nothing has been recorded. */
  isEmpty(): boolean {
    return this.byField.size === 0;
  }

  /** The collected problems in the wire shape. */
  toFieldErrors(): FieldError[] {
    return Array.from(this.byField, ([field, messages]) => ({ field, messages }));
  }
}
