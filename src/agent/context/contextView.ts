/**
 * The request's input as the context manager shapes it (#23): the latest compaction's window in place of everything
 * it covers, then the later items, with recorded elisions applied — read from the turn's `TranscriptView`. Only
 * recorded facts (items of the transcript) decide it, so the same transcript always gives the same bytes — and a
 * fresh worker sends what the old one would.
 */
import type { ResponseItem } from '../../models/events.ts';
import type { CompactionItem } from './compaction.ts';
import type { TranscriptView } from './transcriptView.ts';

export interface ContextView {
  input: ResponseItem[];
  previousResponseId?: string;
  compaction?: CompactionItem;
}

export function contextView(
  view: TranscriptView,
  opts: { usePreviousResponseId: boolean; chain?: { responseId: string; seq: number } },
): ContextView {
  const { compaction } = view;
  const chain = opts.usePreviousResponseId ? opts.chain : undefined;
  // A chain that predates the latest compaction is void: the server's copy holds what the compaction replaced.
  if (chain && (!compaction || chain.seq > compaction.throughSeq)) {
    return {
      input: view.items.filter((_, i) => view.sent[i]!.seq >= chain.seq),
      previousResponseId: chain.responseId,
      ...(compaction ? { compaction } : {}),
    };
  }
  return {
    input: [...(compaction?.items ?? []), ...view.items],
    ...(compaction ? { compaction } : {}),
  };
}
