/**
 * The help browser's slice of the panel store: the tool index (packs → tools), fuzzy search (`help.search`), and
 * the detail of one tool (`help.tool`). Replies that arrive out of order are dropped (a newer search or selection
 * wins).
 */
import { useCallback, useMemo, useRef, useState } from 'preact/hooks';
import type { HelpHit, HelpIndex, HelpToolDetail } from '../../port/replies.ts';
import type { Request } from './request.ts';
import { errorMessage } from '../../shared/errorMessage.ts';

export type { HelpHit, HelpIndex, HelpToolDetail };

export interface HelpState {
  index?: HelpIndex;
  query: string;
  results?: HelpHit[];
  searching: boolean;
  /** The pack whose tools are listed (browsing without a query). */
  pack?: string;
  /** The tool whose detail is shown; `null` detail: not found. */
  tool?: string;
  detail?: HelpToolDetail | null;
  error?: string;
}

export interface HelpSlice extends HelpState {
  load(): Promise<void>;
  search(query: string): Promise<void>;
  openPack(name: string | undefined): void;
  openTool(name: string | undefined): Promise<void>;
}

const PLACEHOLDER: Readonly<Record<string, string>> = {
  str: '""',
  int: '0',
  float: '0',
  bool: 'True',
  list: '[]',
  dict: '{}',
};

/** The tool's first example, else a call naming each required argument with a placeholder of its type. */
export function tryExample(d: Pick<HelpToolDetail, 'name' | 'examples' | 'params'>): string {
  if (d.examples[0]) return d.examples[0];
  const args = d.params
    .filter((p) => p.required)
    .map((p) => `${p.name}=${PLACEHOLDER[p.type.split(/\s*\|\s*/)[0] ?? ''] ?? '""'}`);
  return `${d.name}(${args.join(', ')})`;
}

export function useHelp(req: Request): HelpSlice {
  const [state, setState] = useState<HelpState>({ query: '', searching: false });
  const searchSeq = useRef(0);
  const toolSeq = useRef(0);

  const load = useCallback(async () => {
    try {
      const index = await req({ type: 'help.index' });
      setState((s) => ({ ...s, index, error: undefined }));
    } catch (e) {
      setState((s) => ({ ...s, error: errorMessage(e) }));
    }
  }, [req]);

  const search = useCallback(
    async (query: string) => {
      const seq = ++searchSeq.current;
      const q = query.trim();
      if (!q) {
        setState((s) => ({ ...s, query, results: undefined, searching: false }));
        return;
      }
      setState((s) => ({ ...s, query, searching: true }));
      try {
        const r = await req({ type: 'help.search', query: q, limit: 60 });
        if (seq === searchSeq.current)
          setState((s) => ({ ...s, results: r.results, searching: false, error: undefined }));
      } catch (e) {
        if (seq === searchSeq.current) setState((s) => ({ ...s, searching: false, error: errorMessage(e) }));
      }
    },
    [req],
  );

  const openPack = useCallback((pack: string | undefined) => {
    setState((s) => ({ ...s, pack, tool: undefined, detail: undefined }));
  }, []);

  const openTool = useCallback(
    async (tool: string | undefined) => {
      const seq = ++toolSeq.current;
      setState((s) => ({ ...s, tool, detail: undefined }));
      if (!tool) return;
      try {
        const detail = await req({ type: 'help.tool', name: tool });
        if (seq === toolSeq.current) setState((s) => ({ ...s, detail, error: undefined }));
      } catch (e) {
        if (seq === toolSeq.current) setState((s) => ({ ...s, detail: null, error: errorMessage(e) }));
      }
    },
    [req],
  );

  return useMemo(() => ({ ...state, load, search, openPack, openTool }), [state, load, search, openPack, openTool]);
}
