/** True for `{…}` and `Object.create(null)` objects: not arrays, class instances, Maps, Dates or null. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * True for any non-null, non-array object: the looser check for parsed JSON (a provider's reply, a schema), where a
 * value is either data or not, and class instances do not occur.
 */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
