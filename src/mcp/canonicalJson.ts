/**
 * JSON with its object keys sorted, so equal values give equal text: what the pins fingerprint (pins.ts) and what
 * the call guard compares (callGuard.ts). Its own file so that neither of those imports the other.
 */
/** JSON with sorted keys (iterative enough for checked schemas; called after the depth check). */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        )
      : v,
  );
}
