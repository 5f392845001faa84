/**
 * Each `tools/call` gets its own HTTP request that Otto can end: the transports' `fetch` is wrapped so the POST
 * carrying a call is tied to that call, with its own abort. The answer stream is watched beside the SDK: invalid
 * JSON, a response of the wrong shape, or the stream ending or breaking before the answer is a fault of that call,
 * reported at once (the SDK would only log it and leave the call waiting for its timeout). When the call ends for
 * any reason — answered, timed out, cancelled, faulted — its request is aborted if still open, so a server cannot
 * keep streaming into a connection Otto no longer reads, and the browser's connections to the host are not used up.
 */
import { canonical } from './canonicalJson.ts';

export class CallFault extends Error {
  override readonly name = 'CallFault';
}

export interface CallTicket {
  /** Rejects with a CallFault when the server's answer stream is broken; never resolves. */
  readonly fault: Promise<never>;
  /** Ends the HTTP request if still open. */
  end(): void;
}

interface Pending {
  name: string;
  args: string;
  ctl: AbortController;
  id?: string | number;
  failed: (why: string) => void;
  ended: boolean;
}

function rpcOf(
  body: unknown,
): { id?: string | number; method?: string; params?: { name?: unknown; arguments?: unknown } } | undefined {
  if (typeof body !== 'string' || body.length > 5_000_000) return undefined;
  try {
    const v = JSON.parse(body) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as never) : undefined;
  } catch {
    return undefined;
  }
}

export class CallGuard {
  private readonly pending: Pending[] = [];

  constructor(private readonly inner: typeof fetch = (...a) => globalThis.fetch(...a)) {}

  /** Registers the next `tools/call` of `name` with `args` (calls are matched in order). */
  expect(name: string, args: Record<string, unknown>): CallTicket {
    let failed!: (why: string) => void;
    const fault = new Promise<never>((_r, reject) => (failed = (why) => reject(new CallFault(why))));
    fault.catch(() => undefined);
    const p: Pending = { name, args: canonical(args), ctl: new AbortController(), failed, ended: false };
    this.pending.push(p);
    return {
      fault,
      end: () => {
        p.ended = true;
        const i = this.pending.indexOf(p);
        if (i >= 0) this.pending.splice(i, 1);
        p.ctl.abort(new Error('the call ended'));
      },
    };
  }

  readonly fetch: typeof fetch = async (input, init) => {
    const rpc = init?.method === 'POST' ? rpcOf(init.body) : undefined;
    const p =
      rpc?.method === 'tools/call' && rpc.id !== undefined
        ? this.pending.find(
            (x) =>
              x.id === undefined && x.name === rpc.params?.name && x.args === canonical(rpc.params?.arguments ?? {}),
          )
        : undefined;
    if (!p) return this.inner(input, init);
    p.id = rpc!.id;
    const signal = init?.signal ? AbortSignal.any([init.signal, p.ctl.signal]) : p.ctl.signal;
    const res = await this.inner(input, { ...init, signal });
    if (!res.body || !(res.headers.get('content-type') ?? '').includes('text/event-stream')) return res;
    const [mine, theirs] = res.body.tee();
    void watch(mine, p);
    return new Response(theirs, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
}

/** Reads the call's SSE stream: the first fault wins; an answer ends the watch. */
async function watch(stream: ReadableStream<Uint8Array>, p: Pending): Promise<void> {
  const reader = stream
    .pipeThrough(new TextDecoderStream() as unknown as ReadableWritablePair<string, Uint8Array>)
    .getReader();
  let buf = '';
  const onEvent = (block: string): boolean => {
    const data = block
      .split(/\r?\n/)
      .filter((l) => l.startsWith('data:'))
      .map((l) => l.slice(5).replace(/^ /, ''))
      .join('\n');
    const event = /^event:\s*(.*)$/m.exec(block)?.[1]?.trim();
    if (!data || (event && event !== 'message')) return false;
    let msg: unknown;
    try {
      msg = JSON.parse(data);
    } catch {
      p.failed('the server sent invalid JSON');
      return true;
    }
    if (!msg || typeof msg !== 'object' || Array.isArray(msg)) {
      p.failed('the server sent a message of the wrong shape');
      return true;
    }
    const m = msg as { id?: unknown; result?: unknown; error?: unknown; method?: unknown };
    if (m.id !== p.id || m.method !== undefined) return false;
    const resultOk = m.result !== null && typeof m.result === 'object' && !Array.isArray(m.result);
    const errorOk = m.error !== null && typeof m.error === 'object' && !Array.isArray(m.error);
    if (!resultOk && !errorOk) p.failed('the server sent a response of the wrong shape');
    return true;
  };
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buf += value;
      let cut: RegExpExecArray | null;
      while ((cut = /\r?\n\r?\n/.exec(buf))) {
        const block = buf.slice(0, cut.index);
        buf = buf.slice(cut.index + cut[0].length);
        if (onEvent(block)) {
          void reader.cancel().catch(() => undefined);
          return;
        }
      }
      // An endless event (no blank line) is still bounded: the SDK's timeout ends the call.
      if (buf.length > 50_000_000) buf = '';
    }
    if (buf.trim() && onEvent(buf)) return;
    if (!p.ended) p.failed('the server closed the stream without answering');
  } catch {
    if (!p.ended && !p.ctl.signal.aborted) p.failed('the server dropped the connection');
  }
}
