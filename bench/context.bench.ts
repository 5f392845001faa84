/**
 * #23 — the 60-page errand: input tokens bounded vs unbounded, the largest request, the prompt cache's share.
 *
 * Otto's AgentRunner (fake-indexeddb) runs the scripted page reader (test/support/pageReader.ts) over 60 pages of
 * about 10,000 characters, with Otto's real tool definitions (default tool set) and system block, against a model
 * that counts tokens and caches prefixes as the fake API does (characters ÷ 4; 1,024+ tokens, in steps of 128).
 *
 * - bounded, auto budget: the default for a 128k-token model (`agent.context_budget: auto` → 96k): elision and
 *   digests of settled steps (no model request), never a summary.
 * - bounded, budget 13k: a budget that also compacts (summaries written by the model), as the e2e does.
 * - unbounded: what the same requests weighed when every output stayed in every request (Otto before #23), computed
 *   from the run's own stored transcript: the model decides from the last item alone, so its choices are the same.
 *   Past 128k tokens a real model refuses these requests; they are counted as if it did not.
 */
import 'fake-indexeddb/auto';
import '../src/shared/zod.ts';
import { AgentRunner } from '../src/agent/runner.ts';
import type { AgentToolHost } from '../src/agent/toolHost.ts';
import { ConversationStore } from '../src/storage/conversations.ts';
import { SitePermissions } from '../src/storage/sitePermissions.ts';
import { openOttoDB } from '../src/storage/db.ts';
import { DEFAULT_CONFIG } from '../src/config/schema.ts';
import { buildRegistry } from '../src/background/registry.ts';
import { modeDefinitions } from '../src/background/codeMode.ts';
import { systemBlock } from '../src/background/systemBlock.ts';
import { wireRewriter } from '../src/tools/wireNames.ts';
import { flattenToolsForResponsesApi } from '../src/models/flattenTools.ts';
import { isLocalItem } from '../src/agent/transcript.ts';
import { ReaderModel } from '../test/support/readerModel.ts';
import { ERRAND, pageText } from '../test/support/pageReader.ts';
import { promptTokens } from '../test/support/fake-api/contextModel.ts';
import type { BenchMetric } from './types.ts';

export const name = 'context';
export const rounds = 1;

const PAGES = 60;
const ORIGIN = 'https://pages.example';

let db = 0;

async function errand(budget: number | 'auto') {
  const registry = buildRegistry(DEFAULT_CONFIG);
  const rewrite = wireRewriter(registry);
  const definitions = modeDefinitions(registry, 'tools', 'default');
  const kept = new Map<string, string>();
  let page = '';
  const host: AgentToolHost = {
    definitions: () => definitions,
    forModel: rewrite,
    lookup: (api) => {
      const q = registry.qualifiedNameOf(api);
      return q ? { qualifiedName: q, readOnly: true } : undefined;
    },
    closest: () => [],
    isDestructive: () => false,
    keep: async (text) => {
      const handle = (kept.size + 1).toString(16).padStart(12, '0');
      kept.set(handle, text);
      return handle;
    },
    async run(qualified, args) {
      const a = args as { url?: string; handle?: string };
      if (qualified === 'tabs.navigate') {
        page = a.url!;
        return { navigated: { title: `Page ${/page-(\d+)/.exec(page)?.[1]}`, url: page } };
      }
      if (qualified === 'dom.snapshot') {
        const i = Number(/page-(\d+)/.exec(page)?.[1] ?? 0);
        return `Page snapshot — 3 refs\ntitle: Page ${i}\nurl: ${page}\n${pageText(i)}`;
      }
      if (qualified === 'ot.result') return kept.get(a.handle!)?.slice(0, 4000) ?? 'not found';
      return 'ok';
    },
  };
  const model = new ReaderModel(PAGES, ORIGIN);
  const database = await openOttoDB(`bench-context-${++db}-${Date.now()}`);
  const store = new ConversationStore(database);
  const instructions = rewrite(
    systemBlock({
      conversationId: 'bench',
      tab: { title: 'Start', url: `${ORIGIN}/` },
      date: '2026-11-25',
      mode: 'tools',
    }),
  );
  const runner = new AgentRunner({
    model,
    tools: host,
    store,
    sites: new SitePermissions(database),
    config: () => ({
      ...DEFAULT_CONFIG,
      agent: { ...DEFAULT_CONFIG.agent, model: 'gpt-4o', context_budget: budget, max_turns: 1000 },
    }),
    instructions: () => instructions,
    keepAlive: () => undefined,
  });
  const { id } = await store.create();
  const state = await runner.send(id, ERRAND(PAGES));
  if (state.stopReason !== 'completed') throw new Error(`the errand did not finish: ${state.stopReason}`);
  const tools = flattenToolsForResponsesApi(definitions) as unknown as Record<string, unknown>[];
  const records = await store.transcript(id);
  database.close();
  return { model, records, instructions, tools };
}

export async function run(): Promise<BenchMetric[]> {
  const auto = await errand('auto');
  const tight = await errand(13_000);

  // Unbounded: each response's request replayed every earlier item as it was stored.
  const unbounded: number[] = [];
  const raw = auto.records.filter((r) => !isLocalItem(r.item as { type: string }));
  for (let i = 1; i < raw.length; i++) {
    const item = raw[i]!.item;
    const startsResponse =
      (item.type === 'function_call' || (item.type === 'message' && item.role === 'assistant')) &&
      raw[i - 1]!.item.type !== 'function_call';
    if (!startsResponse) continue;
    const input = raw.slice(0, i).map((r) => r.item);
    unbounded.push(promptTokens({ instructions: auto.instructions, tools: auto.tools, input }));
  }
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  const stats = (m: ReaderModel) => {
    const ok = m.requests.filter((r) => !r.refused);
    return {
      total: sum(ok.map((r) => r.tokens)),
      largest: Math.max(...ok.map((r) => r.tokens)),
      first: ok[0]!.tokens,
      cached: sum(ok.map((r) => r.cached)) / Math.max(1, sum(ok.map((r) => r.tokens))),
      summaries: ok.filter((r) => r.summary).length,
      requests: ok.length,
    };
  };
  const a = stats(auto.model);
  const t = stats(tight.model);
  const u = { total: sum(unbounded), largest: Math.max(...unbounded) };
  return [
    { name: 'requests', value: a.requests, unit: 'count' },
    { name: 'first_request_tokens', value: a.first, unit: 'tokens' },
    { name: 'unbounded_total_input_tokens', value: u.total, unit: 'tokens' },
    { name: 'unbounded_largest_request_tokens', value: u.largest, unit: 'tokens' },
    { name: 'auto_total_input_tokens', value: a.total, unit: 'tokens' },
    { name: 'auto_largest_request_tokens', value: a.largest, unit: 'tokens' },
    {
      name: 'auto_total_vs_unbounded',
      value: Math.round((a.total / u.total) * 1000) / 1000,
      unit: 'ratio',
      budget: 0.1,
    },
    { name: 'auto_cached_share', value: Math.round(a.cached * 1000) / 1000, unit: 'ratio' },
    { name: 'budget13k_total_input_tokens', value: t.total, unit: 'tokens' },
    { name: 'budget13k_largest_request_tokens', value: t.largest, unit: 'tokens' },
    {
      name: 'budget13k_total_vs_unbounded',
      value: Math.round((t.total / u.total) * 1000) / 1000,
      unit: 'ratio',
      budget: 0.1,
    },
    { name: 'budget13k_cached_share', value: Math.round(t.cached * 1000) / 1000, unit: 'ratio' },
    { name: 'budget13k_summary_requests', value: t.summaries, unit: 'count' },
  ];
}
