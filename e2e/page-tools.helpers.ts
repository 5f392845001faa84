/**
 * Drives the built extension's tools from e2e tests (and the benchmarks that run in Chromium): `tool` runs a
 * registered tool as the agent would and returns the text the model receives; `call` reaches the worker's
 * page-tool router (`globalThis.otto.page`, see src/page/index.ts) below the tools, through the real service
 * worker and content scripts.
 */
import type { Page, Worker } from '@playwright/test';
import { openTab, tabIdFor } from './support/tabs.ts';

export type PageApiName =
  | 'snapshot'
  | 'formatSnapshot'
  | 'find'
  | 'query'
  | 'text'
  | 'read'
  | 'act'
  | 'formatAction'
  | 'waitFor'
  | 'dialogs'
  | 'pingFrames'
  | 'injectContentScripts';

/**
 * Runs the tool `name` from the worker's registry as the agent would (arguments parsed with its schema, defaults
 * filled) and returns its text: a failure comes back as `Error: <message>`, the way the model reads it. A name the
 * registry does not know fails the test. `TOOL_DEBUG=1` prints every call's text.
 */
export async function tool(sw: Worker, name: string, args: Record<string, unknown>): Promise<string> {
  const r = await sw.evaluate(
    async ([n, a]) => {
      const g = globalThis as unknown as {
        otto: {
          registry: () => {
            get(
              q: string,
            ):
              | { parameters: { parse(x: unknown): unknown }; execute(x: unknown, ctx: unknown): Promise<unknown> }
              | undefined;
          };
        };
      };
      const t = g.otto.registry().get(n);
      if (!t) return { known: false, text: '' };
      try {
        const out = await t.execute(t.parameters.parse(a), { signal: new AbortController().signal });
        return { known: true, text: typeof out === 'string' ? out : JSON.stringify(out) };
      } catch (e) {
        return { known: true, text: `Error: ${(e as Error).message}` };
      }
    },
    [name, args] as const,
  );
  if (!r.known) throw new Error(`no tool named ${name} in the worker's registry`);
  if (process.env.TOOL_DEBUG) console.log(`--- ${name}\n${r.text}`);
  return r.text;
}

/** Calls `otto.page[name](...args)` in the worker and returns its (JSON-serialisable) result. */
export function call<T = unknown>(sw: Worker, name: PageApiName, ...args: unknown[]): Promise<T> {
  return sw.evaluate(
    async ([n, a]) => {
      const api = (globalThis as unknown as { otto: { page: Record<string, (...x: unknown[]) => unknown> } }).otto.page;
      const out = await api[n as string]!(...(a as unknown[]));
      return out === undefined ? undefined : (JSON.parse(JSON.stringify(out)) as unknown);
    },
    [name, args] as const,
  ) as Promise<T>;
}

/** Like `call`, but expects a failure and returns its message (and code). */
export async function callError(
  sw: Worker,
  name: PageApiName,
  ...args: unknown[]
): Promise<{ message: string; code?: string }> {
  const r = await sw.evaluate(
    async ([n, a]) => {
      const api = (globalThis as unknown as { otto: { page: Record<string, (...x: unknown[]) => unknown> } }).otto.page;
      try {
        await api[n as string]!(...(a as unknown[]));
        return { ok: true as const };
      } catch (e) {
        return { ok: false as const, message: (e as Error).message, code: (e as { code?: string }).code };
      }
    },
    [name, args] as const,
  );
  if (r.ok) throw new Error(`${name} succeeded but a failure was expected`);
  return { message: r.message, code: r.code };
}

/** The Chrome tab id of a Playwright page. */
export const tabIdOf = (sw: Worker, page: Page): Promise<number> => tabIdFor(sw, page.url());

export { openTab };

/** The ref on the first outline line that contains `needle`. */
export function refIn(outline: string, needle: string | RegExp): string {
  const line = outline.split('\n').find((l) => (typeof needle === 'string' ? l.includes(needle) : needle.test(l)));
  const m = line && /\[ref=((?:f\d+)?[a-df-z]{2}e\d+)\]/.exec(line);
  if (!m) throw new Error(`no ref on a line matching ${String(needle)} in:\n${outline}`);
  return m[1]!;
}

export interface Snap {
  text: string;
  url: string;
  title: string;
  refs: number;
  newRefs: number;
  frames: number;
  truncated: boolean;
  note?: string;
}

export interface ActionResult {
  action: string;
  summary: string;
  target?: string;
  details: Record<string, unknown>;
  changes: {
    navigated?: { from: string; to: string };
    added: string[];
    addedCount: number;
    removedCount: number;
    dialogsOpened: string[];
    dialogsClosed: string[];
    pageDialogs: { type: string; message: string; answer?: unknown }[];
    focus?: string;
  };
  navigation?: { from: string; to: string; title: string; complete: boolean };
}
