/**
 * How long the outputs behind stubs, digests and compaction indexes stay readable (#23, docs/decisions.md): they
 * follow the result store's expiry (`output.result_ttl`), but never for less than KEPT_MIN_TTL_S, and every drive of
 * a run of their conversation (send, resume, approve) renews them — so a handle is readable for the whole run that
 * made it, and for a day after its conversation was last driven. `result_ttl: 0` keeps them for ever; deleting the
 * conversation deletes them.
 */
import type { ItemRecord } from '../../storage/records.ts';
import type { ElisionItem } from './elide.ts';
import type { CompactionItem } from './compaction.ts';

/** A day: a run paused for an approval overnight can still read back what it read before. */
export const KEPT_MIN_TTL_S = 86_400;

/** The expiry (seconds) of a kept output under the configured `output.result_ttl` (0: never). */
export function keptTtl(resultTtl: number): number {
  return resultTtl === 0 ? 0 : Math.max(resultTtl, KEPT_MIN_TTL_S);
}

/** Every handle a conversation's transcript stands on: its stubs and its compactions' indexes. */
export function keptHandles(records: readonly ItemRecord[]): string[] {
  const out = new Set<string>();
  for (const r of records) {
    if (r.item.type === 'otto.elision')
      for (const e of (r.item as ElisionItem).entries ?? []) if (typeof e?.handle === 'string') out.add(e.handle);
    if (r.item.type === 'otto.compaction')
      for (const h of (r.item as CompactionItem).handles ?? []) if (typeof h?.handle === 'string') out.add(h.handle);
  }
  return [...out];
}
