/**
 * #23: long errands in a bounded context — elision of superseded observations, the budget, compaction (the server's
 * or a summary), provenance, recovery from a context-length error, resume across a compaction, a stable prefix.
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { z } from '../../src/shared/zod.ts';
import { config, expectValidTranscript, setup, type Harness } from './helpers.ts';
import { ReaderModel } from '../support/readerModel.ts';
import { ERRAND, NOTES, pageText } from '../support/pageReader.ts';
import { contextBudget, knownWindow } from '../../src/agent/context/contextBudget.ts';
import { isContextLengthError } from '../../src/agent/context/contextError.ts';
import { splitPoints } from '../../src/agent/context/compaction.ts';
import { contextView } from '../../src/agent/context/contextView.ts';
import { transcriptView } from '../../src/agent/context/transcriptView.ts';
import { keptHandles, keptTtl } from '../../src/agent/context/kept.ts';
import type { ModelRequest, ResponseItem } from '../../src/models/events.ts';
import { SUMMARY_REQUEST } from '../../src/agent/context/compaction.ts';

const ORIGIN = 'https://pages.example';

/** The harness's host with the three tools the reader calls, and a store for handles. */
function withPageTools(h: Harness): Map<string, string> {
  const kept = new Map<string, string>();
  let page = '';
  h.host.define('tabs.navigate', {
    readOnly: true,
    schema: z.object({ url: z.string() }),
    impl: (a) => {
      page = String(a.url);
      return `Navigated to ${page}`;
    },
  });
  h.host.define('dom.snapshot', {
    readOnly: true,
    schema: z.object({}).passthrough(),
    impl: () => {
      const i = Number(/page-(\d+)/.exec(page)?.[1] ?? 0);
      return `Page snapshot\ntitle: Page ${i}\nurl: ${page}\n${pageText(i)}`;
    },
  });
  h.host.define('ot.result', {
    readOnly: true,
    schema: z.object({ handle: z.string(), offset: z.number().optional(), limit: z.number().optional() }),
    impl: (a) => kept.get(String(a.handle)) ?? `Result not found: ${String(a.handle)}`,
  });
  let n = 0;
  (h.host as unknown as { keep: (text: string) => Promise<string> }).keep = async (text) => {
    const handle = (++n).toString(16).padStart(12, '0');
    kept.set(handle, text);
    return handle;
  };
  return kept;
}

/**
 * Before each turn's request (not the summary request a compaction makes), the input the model receives is compared
 * with the view of the transcript as stored at that moment: `contextView(transcriptView(records))`.
 */
function checkedAgainstView(model: ReaderModel, h: Harness): { checked: number; mismatches: string[] } {
  const seen = { checked: 0, mismatches: [] as string[] };
  const stream = model.stream.bind(model);
  model.stream = async function* (request: ModelRequest) {
    const last = JSON.stringify(request.input.at(-1));
    if (!last.includes(SUMMARY_REQUEST)) {
      const view = transcriptView(await h.store.transcript(h.conversationId));
      const expected = JSON.stringify(contextView(view, { usePreviousResponseId: false }).input);
      seen.checked++;
      if (JSON.stringify(request.input) !== expected) seen.mismatches.push(`request ${seen.checked}`);
    }
    yield* stream(request);
  };
  return seen;
}

async function errand(
  pages: number,
  opts: {
    window?: number;
    serverCompaction?: boolean;
    budget?: number;
    instructions?: string;
    check?: (model: ReaderModel, h: Harness) => void;
  } = {},
) {
  const model = new ReaderModel(pages, ORIGIN, opts);
  const h = await setup({
    config: config({
      agent: {
        max_turns: 1000,
        ...(opts.budget ? { context_budget: opts.budget } : {}),
        ...(opts.instructions ? { instructions: opts.instructions } : {}),
      },
    }),
  });
  opts.check?.(model, h);
  h.model = model as never;
  h.runner = h.newRunner({ model });
  const kept = withPageTools(h);
  h.origin = ORIGIN;
  const state = await h.runner.send(h.conversationId, ERRAND(pages));
  return { h, model, kept, state };
}

const allText = (input: readonly ResponseItem[]) => JSON.stringify(input);

describe('superseded observations leave the request', () => {
  it('replaces an older snapshot of the same tab by a stub with its handle; the transcript keeps it in full', async () => {
    const { h, model, kept, state } = await errand(3);
    expect(state.stopReason).toBe('completed');
    const answer = model.requests.at(-2)!;
    // The request that read page 1 back: page 1 and 2 snapshots are stubs; page 3's (the newest) is there in full.
    const text = allText(answer.input);
    expect(text).not.toContain('Page 01 marker');
    expect(text).toContain('Page 03 marker');
    expect(text).toMatch(
      /\[Otto: this output was replaced by a newer one and left out of the context — dom\.snapshot of the run's tab \(https:\/\/pages\.example\/long\/page-01\.html\) at \d\d:\d\d:\d\dZ, 10,\d{3} chars; read it back in full with ot\.result\(handle='0+1'\)\.\]/,
    );
    // The model read page 1 back through that handle and got its text.
    const items = await h.items();
    expect(items.at(-1)).toMatchObject({ type: 'message', role: 'assistant' });
    expect(JSON.stringify(items.at(-1))).toContain('Page 1 says: Page 01 marker: the value for page 01 is 1007.');
    expect(kept.get('000000000001')).toContain('Page 01 marker');
    // The stored transcript keeps every output as it was.
    expect(JSON.stringify(items)).toContain('Page 01 marker');
    expectValidTranscript(items.filter((i) => !String(i.type).startsWith('otto.')));
  });

  it('keeps the prefix byte-identical between requests except where an elision happens', async () => {
    const { model } = await errand(4);
    const reqs = model.requests.map((r) => JSON.stringify(r.input));
    for (let i = 1; i < reqs.length; i++) {
      const prev = model.requests[i - 1]!.input;
      const cur = model.requests[i]!.input;
      // Every item of the previous request is in this one, unchanged, except outputs replaced by a stub.
      for (let k = 0; k < prev.length; k++) {
        if (JSON.stringify(prev[k]) === JSON.stringify(cur[k])) continue;
        expect(cur[k]).toMatchObject({ type: 'function_call_output' });
        expect(String(cur[k]!.output)).toMatch(/^\[Otto: this output was replaced/);
      }
      expect(reqs[i]!.length).toBeGreaterThan(0);
    }
  });
});

describe('a context budget, compaction and recovery', () => {
  it('compacts with a summary by the model when a request would pass the budget; the largest request stays bounded', async () => {
    const { h, model, state } = await errand(30, { budget: 6000 });
    expect(state.stopReason).toBe('completed');
    const summaries = model.requests.filter((r) => r.summary);
    expect(summaries.length).toBeGreaterThan(0);
    const items = await h.items();
    const compactions = items.filter((i) => i.type === 'otto.compaction' && i.method !== 'digest');
    expect(compactions.length).toBe(summaries.length);
    expect(compactions[0]).toMatchObject({ method: 'summary', reason: 'budget', labels: [] });
    // After a compaction the request starts with the user's message verbatim, then the notes and the index.
    const after = model.requests.find((r, i) => i > 0 && model.requests[i - 1]!.summary)!;
    expect(after.input[0]).toMatchObject({ role: 'user', content: [{ type: 'input_text', text: ERRAND(30) }] });
    const notes = JSON.stringify(after.input[1]);
    expect(notes).toContain(NOTES);
    expect(notes).toContain("[Outputs read before; ot.result(handle='…') reads any of them in full:]");
    expect(notes).toContain(
      "- dom.snapshot of the run's tab, https://pages.example/long/: page-01.html 000000000001; page-02.html 000000000002;",
    );
    // Bounded: no main request passes the budget by more than one page.
    const main = model.requests.filter((r) => !r.summary);
    expect(Math.max(...main.map((r) => r.tokens))).toBeLessThan(6000 + 3000);
    // And the model read page 1 back at the end, through the index.
    expect(JSON.stringify(items.at(-1))).toContain('Page 1 says: Page 01 marker');
  });

  it("uses the server's compaction where the server offers it", async () => {
    const { h, model, state } = await errand(20, { budget: 6000, serverCompaction: true });
    expect(state.stopReason).toBe('completed');
    expect(model.compactions.length).toBeGreaterThan(0);
    expect(model.requests.some((r) => r.summary)).toBe(false);
    const items = await h.items();
    const c = items.find((i) => i.type === 'otto.compaction' && i.method !== 'digest')!;
    expect(c).toMatchObject({ method: 'server' });
    const after = model.requests.find((r) => r.input.some((i) => i.type === 'compaction'))!;
    expect(after.input.map((i) => i.type).slice(0, 3)).toEqual(['message', 'compaction', 'message']);
    expect(JSON.stringify(items.at(-1))).toContain('Page 1 says: Page 01 marker');
  });

  it('recovers from context_length_exceeded by compacting and asking once more, and says so', async () => {
    // The budget is set far above what the model takes: the server refuses, Otto compacts and retries.
    const { h, model, state } = await errand(24, { budget: 200_000, window: 5000 });
    expect(state.stopReason).toBe('completed');
    const refused = model.requests.filter((r) => r.refused);
    expect(refused.length).toBeGreaterThan(0);
    const notices = h.eventsOf('notice').map((e) => e.message);
    expect(notices).toContain(
      'The model refused the request as too long for its context (context_length_exceeded). Otto compacted the earlier turns and asked again.',
    );
    const items = await h.items();
    expect(items.find((i) => i.type === 'otto.compaction')).toMatchObject({ reason: 'context_error' });
    // Never died: every request after a refusal succeeded.
    for (const [i, r] of model.requests.entries()) if (r.refused) expect(model.requests[i + 1]?.refused).toBeFalsy();
  });

  it('condenses settled steps into a digest without a model request; page 1 is read back through its line', async () => {
    // The default budget (auto; 24,576 for the harness's model, which no table knows) is far from reached, yet the
    // stubs and calls of settled pages are condensed.
    const { h, model, state } = await errand(30);
    expect(state.stopReason).toBe('completed');
    expect(model.requests.some((r) => r.summary)).toBe(false);
    const items = await h.items();
    const digests = items.filter((i) => i.type === 'otto.compaction');
    expect(digests.length).toBeGreaterThan(0);
    expect(digests.every((d) => d.method === 'digest' && d.reason === 'history')).toBe(true);
    const last = model.requests.at(-1)!;
    // The user's message verbatim, then Otto's lines: each call with its arguments and what it returned.
    expect(last.input[0]).toMatchObject({ role: 'user', content: [{ type: 'input_text', text: ERRAND(30) }] });
    const digest = JSON.stringify(last.input[1]);
    expect(digest).toContain(
      "[Otto: earlier steps, condensed to fit the context: each call, its arguments and what it returned; ot.result(handle='…') reads a long output back in full.]",
    );
    expect(digest).toContain(
      '- tabs__navigate {\\"url\\":\\"https://pages.example/long/page-01.html\\"} → Navigated to https://pages.example/long/page-01.html\\n',
    );
    expect(digest).toMatch(
      /- dom__snapshot → \[10,\d{3} chars of https:\/\/pages\.example\/long\/page-01\.html; handle 0+1\]/,
    );
    // Settled steps are not re-sent as items: page 1's stub and call are a line of the digest now.
    const outputs = last.input.filter((i) => i.type === 'function_call_output').map((i) => String(i.output));
    // (the last output is page 1 read back through the handle)
    expect(outputs.slice(0, -1).some((o) => o.includes('page-01.html'))).toBe(false);
    expect(outputs.at(-1)).toContain('Page 01 marker');
    expect(last.input.length).toBeLessThan(2 + 4 * 30);
    expect(JSON.stringify(items.at(-1))).toContain('Page 1 says: Page 01 marker');
  });

  it('does not thrash when the fixed prefix is near the budget: compacts only when it saves a tenth of it, and says so', async () => {
    // Instructions of 28,000 characters (7,000 tokens, as a large tool set would be) against a budget of 9,000: each
    // page alone brings a request over the budget, and compacting one or two turns saves nothing.
    const { h, model, state } = await errand(30, { budget: 9000, instructions: 'i'.repeat(28_000) });
    expect(state.stopReason).toBe('completed');
    const items = await h.items();
    const compactions = items.filter((i) => i.type === 'otto.compaction') as unknown as {
      tokensBefore: number;
      tokensAfter: number;
      fixedTokens: number;
    }[];
    // Bounded: 30 pages add about 5,700 tokens of stubs and calls, so at most one compaction per 900 tokens saved.
    expect(compactions.length).toBeGreaterThan(0);
    expect(compactions.length).toBeLessThanOrEqual(6);
    expect(model.requests.filter((r) => r.summary).length).toBe(compactions.length);
    for (const c of compactions) {
      expect(c.tokensBefore - c.tokensAfter).toBeGreaterThanOrEqual(900);
      expect(c.fixedTokens).toBeGreaterThan(7000);
    }
    // The transcript says once that the request went over the budget, and why.
    const notes = items.filter((i) => i.type === 'otto.context_note').map((i) => String(i.text));
    expect(notes.length).toBeGreaterThan(0);
    expect(notes.length).toBeLessThanOrEqual(compactions.length + 1);
    expect(notes[0]).toMatch(
      /^Over the context budget: this request is about [\d,]+ tokens against a budget of 9,000, and compacting the earlier turns now would save (only about [\d,]+|nothing)\. The instructions and tool definitions alone take about 7,\d{3} tokens\. Otto sends the request as it is and compacts once enough earlier turns have built up; a larger agent\.context_budget or a smaller tool set fits it\.$/,
    );
    expect((await h.state())!.context).toMatchObject({ budget: 9000 });
    expect((await h.state())!.context!.fixedTokens).toBeGreaterThan(7000);
    // The run went on and the model still read page 1 back through the index.
    expect(JSON.stringify(items.at(-1))).toContain('Page 1 says: Page 01 marker');
  });

  it('still recovers from a real context error when the prefix is near the budget', async () => {
    // The server's window is below what a request with a page reaches, the budget above it: Otto learns from the refusal.
    const { h, model, state } = await errand(12, { budget: 200_000, window: 11_000, instructions: 'i'.repeat(28_000) });
    expect(state.stopReason).toBe('completed');
    expect(model.requests.filter((r) => r.refused).length).toBeGreaterThan(0);
    for (const [i, r] of model.requests.entries()) if (r.refused) expect(model.requests[i + 1]?.refused).toBeFalsy();
    const items = await h.items();
    expect(items.find((i) => i.type === 'otto.compaction')).toMatchObject({ reason: 'context_error' });
    expect(JSON.stringify(items.at(-1))).toContain('Page 1 says: Page 01 marker');
  });

  it('every request sent is the view of the transcript as it stood: across elisions, digests, compactions, a recovery', async () => {
    let seen: ReturnType<typeof checkedAgainstView> | undefined;
    const { h, model, state } = await errand(30, {
      budget: 6000,
      window: 9000,
      check: (m, harness) => (seen = checkedAgainstView(m, harness)),
    });
    expect(state.stopReason).toBe('completed');
    const items = await h.items();
    // The errand went through every step that writes to the transcript before a request.
    expect(items.some((i) => i.type === 'otto.elision')).toBe(true);
    expect(items.some((i) => i.type === 'otto.compaction')).toBe(true);
    expect(seen!.checked).toBe(model.requests.filter((r) => !r.summary).length);
    expect(seen!.mismatches).toEqual([]);
  });

  it('a fresh worker builds the same request across a compaction (resume)', async () => {
    const { h } = await errand(30, { budget: 6000 });
    const records = await h.store.transcript(h.conversationId);
    const a = contextView(transcriptView(records), { usePreviousResponseId: false });
    const again = contextView(transcriptView(await h.store.transcript(h.conversationId)), {
      usePreviousResponseId: false,
    });
    expect(JSON.stringify(again.input)).toBe(JSON.stringify(a.input));
    expect(a.compaction).toBeDefined();
  });
});

describe('provenance survives compaction', () => {
  it('a compaction carries the origin labels of the outputs it stands for', async () => {
    const model = new ReaderModel(30, ORIGIN);
    const h = await setup({ config: config({ agent: { max_turns: 1000, context_budget: 6000 } }) });
    h.runner = h.newRunner({ model });
    withPageTools(h);
    // A guard-less host: label each page output with its page's origin, as the data-flow guard does.
    const run = h.host.run.bind(h.host);
    h.host.run = async (name, args, ctx) => {
      const out = await run(name, args, ctx);
      ctx.flow?.addLabels?.([ORIGIN]);
      return out;
    };
    (h.host as unknown as { checkFlow: () => Promise<undefined> }).checkFlow = async () => undefined;
    await h.runner.send(h.conversationId, ERRAND(30));
    const items = await h.items();
    const c = items.find((i) => i.type === 'otto.compaction')!;
    expect(c.labels).toEqual([ORIGIN]);
    const stubs = items.filter((i) => i.type === 'otto.elision').flatMap((i) => i.entries as { labels?: string[] }[]);
    expect(stubs[0]!.labels).toEqual([ORIGIN]);
    expect((await h.state())!.origins).toEqual([ORIGIN]);
  });
});

describe("kept outputs follow the result store's expiry (#23)", () => {
  it('at least a day, 0 for ever', () => {
    expect(keptTtl(3600)).toBe(86_400);
    expect(keptTtl(172_800)).toBe(172_800);
    expect(keptTtl(0)).toBe(0);
  });

  it("each drive renews the handles the conversation's stubs and compactions stand on; deleting it forgets them", async () => {
    const model = new ReaderModel(12, ORIGIN);
    const h = await setup({ config: config({ agent: { max_turns: 1000, context_budget: 6000 } }) });
    h.runner = h.newRunner({ model });
    const kept = withPageTools(h);
    const renewed: string[][] = [];
    const forgotten: string[][] = [];
    const host = h.host as unknown as { renew: (x: string[]) => Promise<void>; forget: (x: string[]) => Promise<void> };
    host.renew = async (handles) => void renewed.push([...handles]);
    host.forget = async (handles) => void forgotten.push([...handles]);
    await h.runner.send(h.conversationId, ERRAND(12));
    // The first drive had no stubs yet; the second (a new message) renews every one of them, pages 1 to 12.
    expect(renewed).toEqual([]);
    const first = keptHandles(await h.store.transcript(h.conversationId));
    expect(first.length).toBeGreaterThanOrEqual(11);
    await h.runner.send(h.conversationId, 'thanks');
    expect(renewed.length).toBe(1);
    expect(renewed[0]!.sort()).toEqual([...first].sort());
    // (the reader reads the pages again on any new message: more stubs)
    const all = keptHandles(await h.store.transcript(h.conversationId));
    for (const handle of all) expect(kept.has(handle)).toBe(true);
    expect(await h.runner.deleteConversation(h.conversationId)).toBe(true);
    expect(forgotten.map((f) => f.sort())).toEqual([[...all].sort()]);
    expect(all.length).toBeGreaterThan(first.length);
  });
});

describe('pieces', () => {
  it('knows common models and falls back to a safe default', () => {
    expect(knownWindow('gpt-4o-mini')).toBe(128_000);
    expect(knownWindow('openai/gpt-5-mini')).toBe(272_000);
    expect(knownWindow('my-local-model')).toBeUndefined();
    expect(contextBudget('auto', 'gpt-4o')).toBe(96_000);
    expect(contextBudget('auto', 'my-local-model')).toBe(24_576);
    expect(contextBudget(50_000, 'gpt-4o')).toBe(50_000);
  });

  it("recognises other servers' context errors, not other 400s", () => {
    const e = (message: string, code?: string) => ({
      kind: 'bad_request' as const,
      message,
      ...(code ? { code } : {}),
    });
    expect(isContextLengthError(e('x', 'context_length_exceeded'))).toBe(true);
    expect(
      isContextLengthError(e("This model's maximum context length is 8192 tokens. However, you requested 9000 tokens")),
    ).toBe(true);
    expect(isContextLengthError(e('the request exceeds the available context size, try increasing it'))).toBe(true); // llama.cpp
    expect(isContextLengthError(e('prompt is too long: 210000 tokens > 200000 maximum'))).toBe(true); // Anthropic
    expect(
      isContextLengthError(
        e('The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).'),
      ),
    ).toBe(true); // Gemini
    expect(isContextLengthError(e("Invalid value for 'tool_choice'"))).toBe(false);
    expect(isContextLengthError({ kind: 'rate_limit', message: 'too many tokens per minute' })).toBe(false);
  });

  it('never splits a call from its output or a reasoning item from what follows it', () => {
    const items: ResponseItem[] = [
      { type: 'message', role: 'user', content: 'go' },
      { type: 'reasoning', id: 'rs1' },
      { type: 'function_call', call_id: 'a', name: 'x', arguments: '{}' },
      { type: 'function_call', call_id: 'b', name: 'x', arguments: '{}' },
      { type: 'function_call_output', call_id: 'a', output: '1' },
      { type: 'function_call_output', call_id: 'b', output: '2' },
      { type: 'function_call', call_id: 'c', name: 'x', arguments: '{}' },
      { type: 'function_call_output', call_id: 'c', output: '3' },
    ];
    expect(splitPoints(items)).toEqual([1, 6]);
  });
});
