import { describe, expect, it, vi } from 'vitest';
import { errorOutput, isLocalItem, note, openCalls, toOutput } from '../../src/agent/transcript.ts';
import { contextView } from '../../src/agent/context/contextView.ts';
import { transcriptView } from '../../src/agent/context/transcriptView.ts';
import { parseArguments, unknownToolMessage } from '../../src/agent/calls.ts';
import { originAllowed, originMatches } from '../../src/agent/approvals.ts';
import { originOf } from '../../src/shared/origin.ts';
import { KeepAlive, abortable, childSignal, raceAbort, AbortedError } from '../../src/agent/timing.ts';
import type { ItemRecord } from '../../src/storage/records.ts';
import { ManualTimers } from './helpers.ts';

const rec = (seq: number, item: Record<string, unknown>): ItemRecord => ({
  conversationId: 'c',
  seq,
  createdAt: 0,
  item,
});

describe('the transcript view', () => {
  it('holds the latest compaction, the elisions, the records sent after the window and their items with stubs', () => {
    const window = [{ type: 'message', role: 'user', content: 'notes' }];
    const records = [
      rec(0, { type: 'message', role: 'user', content: 'old' }),
      rec(1, { type: 'otto.compaction', throughSeq: 0, method: 'summary', reason: 'budget', items: window }),
      rec(2, { type: 'function_call', call_id: 'a', name: 'x', arguments: '{}' }),
      rec(3, { type: 'function_call_output', call_id: 'a', output: 'long page text' }),
      rec(4, {
        type: 'otto.elision',
        entries: [{ callId: 'a', tool: 'dom.snapshot', tab: "the run's tab", at: 0, chars: 14, handle: 'h1' }],
      }),
      rec(5, note('aborted', 'Stopped by the user.')),
    ];
    const view = transcriptView(records);
    expect(view.compaction?.throughSeq).toBe(0);
    expect([...view.elided.keys()]).toEqual(['a']);
    expect(view.sent.map((r) => r.seq)).toEqual([2, 3]);
    expect(view.items[1]!.output).toMatch(/^\[Otto: this output was replaced by a newer one .*handle='h1'/);
    expect(view.nextSeq).toBe(6);
    expect(contextView(view, { usePreviousResponseId: false }).input).toEqual([...window, ...view.items]);
    expect(transcriptView([]).nextSeq).toBe(0);
  });
});

describe('transcript helpers', () => {
  const records = [
    rec(0, { type: 'message', role: 'user', content: 'hi' }),
    rec(1, { type: 'function_call', call_id: 'a', name: 'x', arguments: '{}' }),
    rec(2, { type: 'function_call_output', call_id: 'a', output: 'ok' }),
    rec(3, note('aborted', 'Stopped by the user.')),
    rec(4, { type: 'function_call', call_id: 'b', name: 'y', arguments: '{}' }),
  ];

  it('replays everything but local notes; with a chain only what came after it', () => {
    expect(contextView(transcriptView(records), { usePreviousResponseId: false }).input.map((i) => i.type)).toEqual([
      'message',
      'function_call',
      'function_call_output',
      'function_call',
    ]);
    const chained = contextView(transcriptView(records), {
      usePreviousResponseId: true,
      chain: { responseId: 'r', seq: 2 },
    });
    expect(chained).toEqual({ input: [records[2]!.item, records[4]!.item], previousResponseId: 'r' });
    // Chain configured but absent (first turn, after an abort): full replay.
    expect(contextView(transcriptView(records), { usePreviousResponseId: true }).previousResponseId).toBeUndefined();
    // A chain is ignored when the mode is off.
    expect(
      contextView(transcriptView(records), { usePreviousResponseId: false, chain: { responseId: 'r', seq: 2 } })
        .previousResponseId,
    ).toBeUndefined();
    expect(isLocalItem({ type: 'otto.note' })).toBe(true);
    expect(isLocalItem({ type: 'message' })).toBe(false);
  });

  it('finds function calls without output', () => {
    expect(openCalls(records).map((c) => c.call_id)).toEqual(['b']);
  });

  it('formats outputs and errors for the model', () => {
    expect(toOutput('plain')).toBe('plain');
    expect(toOutput({ a: 1, b: [true] })).toBe('{"a":1,"b":[true]}');
    expect(toOutput(undefined)).toBe('null');
    expect(toOutput(3)).toBe('3');
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    expect(toOutput(circular)).toBe('[object Object]');
    expect(errorOutput(new Error('bad thing'))).toBe('Error: bad thing');
    expect(errorOutput('text')).toBe('Error: text');
    expect(errorOutput(new Error(''))).toBe('Error: unknown error');
  });

  it('parses arguments strictly', () => {
    expect(parseArguments('{"a":1}')).toEqual({ ok: true, args: { a: 1 } });
    expect(parseArguments('  ')).toEqual({ ok: true, args: {} });
    expect(parseArguments('{"a":')).toMatchObject({ ok: false });
    expect(parseArguments('null')).toEqual({ ok: false, message: 'expected a JSON object' });
    expect(parseArguments('"str"')).toEqual({ ok: false, message: 'expected a JSON object' });
    expect(unknownToolMessage('x', [])).toBe("Error: unknown tool 'x'.");
    expect(unknownToolMessage('x', ['a.b', 'c.d'])).toBe("Error: unknown tool 'x'. Did you mean: a.b, c.d?");
  });
});

describe('origins', () => {
  it('matches exact origins, wildcard subdomains and bare hosts', () => {
    expect(originOf('https://a.example/path?q')).toBe('https://a.example');
    expect(originOf('about:blank')).toBeUndefined();
    expect(originOf('not a url')).toBeUndefined();
    expect(originMatches('https://a.example', 'https://a.example/')).toBe(true);
    expect(originMatches('https://a.example', 'http://a.example')).toBe(false);
    expect(originMatches('https://x.a.example', 'https://*.a.example')).toBe(true);
    expect(originMatches('https://a.example', 'https://*.a.example')).toBe(true);
    expect(originMatches('https://evil-a.example', 'https://*.a.example')).toBe(false);
    expect(originMatches('http://localhost:8080', 'localhost:8080')).toBe(true);
    expect(originMatches('https://a.example.evil.com', 'a.example')).toBe(false);
    expect(originAllowed(undefined, ['*'])).toBe(false);
    expect(originAllowed('https://b.example', ['https://a.example', 'b.example'])).toBe(true);
  });
});

describe('timing', () => {
  it('keep-alive pings on the interval only while runs are active', async () => {
    const timers = new ManualTimers();
    const ping = vi.fn();
    const tick = vi.fn();
    const k = new KeepAlive({ ping, intervalMs: 20_000, timers, onTick: tick });
    k.update(0);
    timers.advance(60_000);
    expect(ping).not.toHaveBeenCalled();
    k.update(2);
    k.update(1);
    timers.advance(60_000);
    await Promise.resolve();
    expect(ping).toHaveBeenCalledTimes(3);
    expect(tick).toHaveBeenCalledTimes(3);
    k.update(0);
    expect(k.running).toBe(false);
    timers.advance(60_000);
    await Promise.resolve();
    expect(ping).toHaveBeenCalledTimes(3);
  });

  it('a failing ping does not stop the keep-alive', async () => {
    const timers = new ManualTimers();
    const ping = vi.fn(() => Promise.reject(new Error('no chrome')));
    const k = new KeepAlive({ ping, intervalMs: 10, timers });
    k.update(1);
    timers.advance(30);
    await Promise.resolve();
    expect(ping).toHaveBeenCalledTimes(3);
  });

  it('raceAbort and abortable give up as soon as the signal aborts', async () => {
    const c = new AbortController();
    const p = raceAbort(new Promise(() => undefined), c.signal);
    c.abort();
    await expect(p).rejects.toBeInstanceOf(AbortedError);

    const c2 = new AbortController();
    let returned = false;
    const source: AsyncIterable<number> = {
      [Symbol.asyncIterator]: () => ({
        next: () => new Promise<IteratorResult<number>>(() => undefined),
        return: async () => {
          returned = true;
          return { done: true, value: undefined };
        },
      }),
    };
    const it = abortable(source, c2.signal)[Symbol.asyncIterator]();
    const n = it.next();
    c2.abort();
    await expect(n).rejects.toBeInstanceOf(AbortedError);
    await new Promise((r) => setTimeout(r, 0));
    expect(returned).toBe(true);
  });

  it('childSignal aborts with the parent or on timeout, and says which', () => {
    const timers = new ManualTimers();
    const parent = new AbortController();
    const a = childSignal(parent.signal, 100, timers);
    timers.advance(100);
    expect(a.signal.aborted).toBe(true);
    expect(a.timedOut).toBe(true);
    const b = childSignal(parent.signal, 100, timers);
    parent.abort();
    expect(b.signal.aborted).toBe(true);
    expect(b.timedOut).toBe(false);
    b.dispose();
    const c = childSignal(new AbortController().signal, 0, timers);
    timers.advance(1e9);
    expect(c.signal.aborted).toBe(false);
  });
});
