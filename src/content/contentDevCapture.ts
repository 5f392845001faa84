/**
 * The page-world side of `dom.console` / `dom.network` (#19), injected with `chrome.scripting.executeScript({ world:
 * 'MAIN', func })` — so each function here is self-contained (no imports, no closure over module state). Only
 * tabs a run works on get it (page/pageDevCapture.ts decides when): nothing of this runs in an idle page.
 *
 * `devCapture` wraps `console.*`, `fetch` and `XMLHttpRequest` and listens for uncaught errors and unhandled
 * rejections, keeping the last 200 of each in a non-enumerable slot on `window`; the page's own calls go through
 * unchanged. `devRead` returns that log together with the browser's resource timing (which knows every request of
 * the page since it started, even those before the capture began, with status, duration and size but no method).
 * All of it is page-controlled data: the page can forge or erase it, and the model sees it as untrusted.
 */

export interface DevConsoleEntry {
  level: string;
  text: string;
  source: string;
  /** ms since the page's navigation started. */
  t: number;
}

export interface DevRequest {
  method: string;
  url: string;
  /** HTTP status; 0 when the request failed without an answer. */
  status: number;
  type: string;
  ms: number;
  /** Bytes received (transfer size, or the body's size); -1 when unknown. */
  size: number;
  t: number;
  error?: string;
}

export interface DevLog {
  mode: 'load' | 'late' | 'none';
  /** Scripts of the page already in the document when the capture began. */
  scriptsBefore: number;
  /** How it was installed: at the page's load (`load`), or when a tool first asked (`late`). */
  asked: 'load' | 'late' | 'none';
  /** When the capture began, in ms since the page's navigation started. */
  startedAt: number;
  /** The page's age now, in ms. */
  now: number;
  url: string;
  console: DevConsoleEntry[];
  consoleDropped: number;
  requests: DevRequest[];
}

/** Installs the capture in the page's world (idempotent). `mode`: 'load' when injected at the page's start. */
export function devCapture(mode: 'load' | 'late'): boolean {
  const KEY = Symbol.for('otto.devlog');
  const w = window as unknown as Record<symbol, unknown>;
  const prev = w[KEY];
  // Installed already, or disarmed before it came (pageStartDisarm.ts's marker, gone once the page is parsed).
  if (prev) return false;
  const MAX = 200;
  // Installed at the page's start only if no script of the page is in the document yet (an inline script in the
  // document has already run): otherwise it says it began late.
  const scriptsBefore = document.scripts.length;
  const state = {
    mode: mode === 'load' && scriptsBefore === 0 ? 'load' : 'late',
    startedAt: performance.now(),
    scriptsBefore,
    asked: mode,
    console: [] as unknown[],
    consoleDropped: 0,
    requests: [] as unknown[],
    disarmed: false,
    disarm: () => undefined as void,
  };
  Object.defineProperty(w, KEY, { value: state, enumerable: false, configurable: true });
  // After a disarm the wrappers a page kept a reference to only pass through: nothing more is recorded.
  const off = () => state.disarmed;
  const now = () => Math.round(performance.now());
  const push = (list: unknown[], v: unknown, dropped?: boolean) => {
    if (off()) return;
    list.push(v);
    if (list.length > MAX) {
      list.shift();
      if (dropped) state.consoleDropped++;
    }
  };
  const show = (a: unknown): string => {
    try {
      if (typeof a === 'string') return a;
      if (a instanceof Error) return `${a.name}: ${a.message}`;
      if (a instanceof Element) return `<${a.localName}${a.id ? `#${a.id}` : ''}>`;
      const j = JSON.stringify(a);
      return j === undefined ? String(a) : j;
    } catch {
      return String(a);
    }
  };
  const LOC = /((?:https?|file|chrome-extension):\/\/[^\s()]+?):(\d+)(?::\d+)?\)?\s*$/;
  const callerOf = (): string => {
    const lines = (new Error().stack ?? '').split('\n');
    // 0 "Error", 1 callerOf, 2 the console wrapper, 3 the page's call.
    const m = LOC.exec(lines[3] ?? '');
    return m ? `${m[1]}:${m[2]}` : '';
  };
  const c = console as unknown as Record<string, (...a: unknown[]) => void>;
  const natives: (() => void)[] = [];
  for (const level of ['log', 'info', 'warn', 'error', 'debug']) {
    const orig = c[level]!;
    natives.push(() => (c[level] = orig));
    c[level] = function (this: unknown, ...args: unknown[]) {
      try {
        if (!off())
          push(
            state.console,
            { level, text: args.map(show).join(' ').slice(0, 2000), source: callerOf(), t: now() },
            true,
          );
      } catch {
        // never break the page's logging
      }
      return orig.apply(this, args);
    };
  }
  const onError = (e: Event) => {
    if (e instanceof ErrorEvent)
      push(
        state.console,
        {
          level: 'uncaught',
          text: (e.error instanceof Error ? `${e.error.name}: ${e.error.message}` : e.message).slice(0, 2000),
          source: e.filename ? `${e.filename}:${e.lineno}` : '',
          t: now(),
        },
        true,
      );
  };
  const onRejection = (e: PromiseRejectionEvent) => {
    push(
      state.console,
      {
        level: 'uncaught',
        text: `Unhandled promise rejection: ${show(e.reason)}`.slice(0, 2000),
        source: '',
        t: now(),
      },
      true,
    );
  };
  addEventListener('error', onError, true);
  addEventListener('unhandledrejection', onRejection);
  natives.push(() => {
    removeEventListener('error', onError, true);
    removeEventListener('unhandledrejection', onRejection);
  });
  const ofetch = window.fetch;
  natives.push(() => (window.fetch = ofetch));
  window.fetch = function (this: unknown, input: RequestInfo | URL, init?: RequestInit) {
    if (off()) return ofetch.call(this, input, init);
    const t0 = performance.now();
    const req = input instanceof Request ? input : undefined;
    const method = String(init?.method ?? req?.method ?? 'GET').toUpperCase();
    let url = req ? req.url : String(input);
    try {
      url = new URL(url, location.href).href;
    } catch {
      // keep it as given
    }
    const p = ofetch.call(this, input, init);
    p.then(
      (r) => {
        const len = Number(r.headers.get('content-length'));
        push(state.requests, {
          method,
          url: r.url || url,
          status: r.status,
          type: 'fetch',
          ms: Math.round(performance.now() - t0),
          size: Number.isFinite(len) && r.headers.has('content-length') ? len : -1,
          t: Math.round(t0),
        });
      },
      (err: unknown) =>
        push(state.requests, {
          method,
          url,
          status: 0,
          type: 'fetch',
          ms: Math.round(performance.now() - t0),
          size: -1,
          t: Math.round(t0),
          error: show(err),
        }),
    );
    return p;
  } as typeof fetch;
  const X = XMLHttpRequest.prototype;
  const oopen = X.open;
  const osend = X.send;
  natives.push(() => {
    X.open = oopen;
    X.send = osend;
  });
  const meta = new WeakMap<XMLHttpRequest, { method: string; url: string }>();
  X.open = function (this: XMLHttpRequest, method: string, url: string | URL, ...rest: unknown[]) {
    let u = String(url);
    try {
      u = new URL(u, location.href).href;
    } catch {
      // keep it as given
    }
    meta.set(this, { method: String(method).toUpperCase(), url: u });
    return (oopen as (...a: unknown[]) => void).call(this, method, url, ...rest);
  } as typeof X.open;
  X.send = function (this: XMLHttpRequest, body?: Document | XMLHttpRequestBodyInit | null) {
    const m = meta.get(this);
    const t0 = performance.now();
    if (m)
      this.addEventListener('loadend', () => {
        const len = Number(this.getResponseHeader('content-length'));
        push(state.requests, {
          method: m.method,
          url: this.responseURL || m.url,
          status: this.status,
          type: 'xhr',
          ms: Math.round(performance.now() - t0),
          size: Number.isFinite(len) && this.getResponseHeader('content-length') !== null ? len : -1,
          t: Math.round(t0),
          ...(this.status === 0 ? { error: 'network error or aborted' } : {}),
        });
      });
    return osend.call(this, body);
  };
  state.disarm = () => {
    state.disarmed = true;
    delete w[KEY];
    state.mode = 'none';
    for (const restore of natives) restore();
    state.console.length = 0;
    state.requests.length = 0;
    state.consoleDropped = 0;
  };
  return true;
}

/** Reads the log and the resource timing (whatever the capture saw, plus what the browser timed). */
export function devRead(): DevLog {
  const KEY = Symbol.for('otto.devlog');
  const s = (
    window as unknown as Record<
      symbol,
      | {
          mode: 'load' | 'late';
          asked: 'load' | 'late';
          startedAt: number;
          scriptsBefore: number;
          console: DevConsoleEntry[];
          consoleDropped: number;
          requests: DevRequest[];
        }
      | undefined
    >
  )[KEY];
  const timed: DevRequest[] = [];
  const seen = new Set((s?.requests ?? []).map((r) => `${r.url} ${Math.round(r.t / 50)}`));
  type Timing = PerformanceResourceTiming & { responseStatus?: number };
  const entries = performance.getEntriesByType('resource') as Timing[];
  // A fetch/XHR the capture logged without a Content-Length gets its size from the browser's timing of it.
  const own = (s?.requests ?? []).map((r) => {
    if (r.size >= 0) return r;
    let e: Timing | undefined;
    for (const x of entries)
      if (
        x.name === r.url &&
        Math.abs(x.startTime - r.t) < 1000 &&
        (!e || Math.abs(x.startTime - r.t) < Math.abs(e.startTime - r.t))
      )
        e = x;
    const n = e ? e.encodedBodySize || e.transferSize : 0;
    return n ? { ...r, size: n } : r;
  });
  for (const e of entries) {
    // fetch/XHR the capture logged itself (with their method) are not listed twice.
    if ((e.initiatorType === 'fetch' || e.initiatorType === 'xmlhttprequest') && s && e.startTime >= s.startedAt)
      continue;
    if (seen.has(`${e.name} ${Math.round(e.startTime / 50)}`)) continue;
    timed.push({
      method: e.initiatorType === 'fetch' || e.initiatorType === 'xmlhttprequest' ? '?' : 'GET',
      url: e.name,
      status: e.responseStatus ?? -1,
      type: e.initiatorType === 'xmlhttprequest' ? 'xhr' : e.initiatorType,
      ms: Math.round(e.duration),
      size: e.transferSize || e.encodedBodySize || -1,
      t: Math.round(e.startTime),
    });
  }
  const nav = performance.getEntriesByType('navigation')[0] as
    (PerformanceNavigationTiming & { responseStatus?: number }) | undefined;
  if (nav)
    timed.unshift({
      method: 'GET',
      url: nav.name,
      status: nav.responseStatus ?? -1,
      type: 'document',
      ms: Math.round(nav.duration || nav.responseEnd),
      size: nav.transferSize || nav.encodedBodySize || -1,
      t: 0,
    });
  return {
    mode: s?.mode ?? 'none',
    startedAt: Math.round(s?.startedAt ?? performance.now()),
    scriptsBefore: s?.scriptsBefore ?? 0,
    asked: s?.asked ?? 'none',
    now: Math.round(performance.now()),
    url: location.href,
    console: (s?.console ?? []).slice(),
    consoleDropped: s?.consoleDropped ?? 0,
    requests: [...timed, ...own],
  };
}
