/**
 * The request's input as the context manager shapes it (#23): the latest compaction's window in place of everything
 * it covers, then the later items, with recorded elisions applied. Only recorded facts (items of the transcript)
 * decide it, so the same transcript always gives the same bytes — and a fresh worker sends what the old one would.
 */
import type { ResponseItem } from '../../models/events.ts';
import type { ItemRecord } from '../../storage/records.ts';
import { isLocalItem } from '../transcript.ts';
import { applyElisions, recordedElisions } from './elide.ts';
import { latestCompaction, type CompactionItem } from './compaction.ts';

export interface ContextView {
  input: ResponseItem[];
  previousResponseId?: string;
  compaction?: CompactionItem;
}

export function contextView(
  records: readonly ItemRecord[],
  opts: { usePreviousResponseId: boolean; chain?: { responseId: string; seq: number } },
): ContextView {
  const compaction = latestCompaction(records);
  const elided = recordedElisions(records);
  const chain = opts.usePreviousResponseId ? opts.chain : undefined;
  // A chain that predates the latest compaction is void: the server's copy holds what the compaction replaced.
  if (chain && (!compaction || chain.seq > compaction.throughSeq)) {
    const after = records.filter((r) => r.seq >= chain.seq && !isLocalItem(r.item as ResponseItem));
    return {
      input: applyElisions(
        after.map((r) => r.item as ResponseItem),
        elided,
      ),
      previousResponseId: chain.responseId,
      ...(compaction ? { compaction } : {}),
    };
  }
  const from = compaction?.throughSeq ?? -1;
  const rest = records
    .filter((r) => r.seq > from && !isLocalItem(r.item as ResponseItem))
    .map((r) => r.item as ResponseItem);
  return {
    input: [...(compaction?.items ?? []), ...applyElisions(rest, elided)],
    ...(compaction ? { compaction } : {}),
  };
}
