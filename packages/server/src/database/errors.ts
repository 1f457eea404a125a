/**
 * Whether a statement failed on a unique or primary key: on both engines, the sign that a
 * parallel writer got there first.
 */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string };
  return (
    e.code === '23505' ||
    e.code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    e.code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
  );
}
