/**
 * The transcript as the context manager reads it (#23, #45): the latest compaction, the recorded elisions, the records
 * sent after the compaction's window, and their items with the elisions applied. Built once from the records each
 * time they change (prepare.ts: after an elision batch, a digest or a compaction is written); the request input
 * (`contextView`), the digest and the compaction all read this one view.
 */
import type { ResponseItem } from '../../models/events.ts';
import type { ItemRecord } from '../../storage/records.ts';
import { applyElisions, recordedElisions, type ElisionEntry } from './elide.ts';
import { latestCompaction, sentItems, type CompactionItem } from './compaction.ts';

export interface TranscriptView {
  /** Every record of the transcript, local items included. */
  records: readonly ItemRecord[];
  /** The latest compaction: its window stands for every record up to its `throughSeq`. */
  compaction?: CompactionItem;
  /** The elisions recorded so far, by call id. */
  elided: ReadonlyMap<string, ElisionEntry>;
  /** The records after the compaction that go to the model (Otto's local items left out). */
  sent: readonly ItemRecord[];
  /** `sent`'s items with the elisions applied, index for index (in the transcript's names). */
  items: readonly ResponseItem[];
  /** The seq the next record written will get. */
  nextSeq: number;
}

export function transcriptView(records: readonly ItemRecord[]): TranscriptView {
  const compaction = latestCompaction(records);
  const elided = recordedElisions(records);
  const sent = sentItems(records, compaction?.throughSeq ?? -1);
  const items = applyElisions(
    sent.map((r) => r.item as ResponseItem),
    elided,
  );
  const last = records[records.length - 1];
  return { records, ...(compaction ? { compaction } : {}), elided, sent, items, nextSeq: last ? last.seq + 1 : 0 };
}
