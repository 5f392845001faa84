/**
 * Page dialogs during one of Otto's actions (issue #26). Nothing of this runs while Otto is idle: the worker injects
 * `dialogGuard` into the MAIN world of the frame an action runs in, just before the action, and ends it just after;
 * then `alert`/`confirm`/`prompt` are the very functions they were before (identity-equal), and no global, symbol,
 * attribute or listener of Otto's is left in the page.
 *
 * While it runs, a page's question is answered the safe way: `confirm` → false (Cancel), `prompt` → null (Cancel),
 * `alert` dismissed, so a modal never stalls the run and nothing is accepted on the user's behalf. Only the one
 * question the model asked to accept — quoted word for word, approved by the user under the `ask` policy — gets OK,
 * once.
 *
 * The guard is injected after the page's own scripts, so every global and prototype it could call may have been
 * replaced by the page. The report it returns is therefore built by string concatenation from primitives only (no
 * JSON, no arrays, no methods, no `.then` lookups on objects: the wait is an object literal with its own `then`),
 * and it reaches the worker as the script's result string, never through the page. `decodeDialogReport` reads it.
 */
import type { PageDialog } from '../shared/contentMessages.ts';

/**
 * Runs in the page's MAIN world (chrome.scripting.executeScript `func`): must be self-contained. Installs the
 * overrides synchronously, then resolves with the report when `stopType` is dispatched on `window` (by the worker,
 * from the isolated world), when the page is hidden (navigation), or after `maxMs`.
 */
export async function dialogGuard(
  stopType: string,
  acceptMessage: string | null,
  acceptText: string | null,
  maxMs: number,
): Promise<string> {
  const w = window as unknown as Record<'alert' | 'confirm' | 'prompt', unknown> & Window;
  const before = { alert: w.alert, confirm: w.confirm, prompt: w.prompt };
  let out = '';
  let count = 0;
  let acceptLeft = acceptMessage !== null;
  let done = false;
  let wake: ((v?: unknown) => void) | null = null;
  const text = (v: unknown): string => {
    try {
      return v === undefined ? '' : '' + (v as string);
    } catch {
      return '';
    }
  };
  // kind + length-prefixed answer + length-prefixed message; `.length` of a primitive string is its own property.
  const record = (kind: string, answer: string, message: string): void => {
    if (count >= 20 || out.length > 200000) return;
    count = count + 1;
    out = out + kind + answer.length + ':' + answer + message.length + ':' + message;
  };
  const takeAccept = (message: string): boolean => {
    if (!acceptLeft || message !== acceptMessage) return false;
    acceptLeft = false;
    return true;
  };
  const ours = {
    alert(message?: unknown): void {
      record('a', 'U', text(message));
    },
    confirm(message?: unknown): boolean {
      const m = text(message);
      const yes = takeAccept(m);
      record('c', yes ? 'T' : 'F', m);
      return yes;
    },
    prompt(message?: unknown, defaultValue?: unknown): string | null {
      const m = text(message);
      const answer = takeAccept(m) ? (acceptText !== null ? acceptText : text(defaultValue)) : null;
      record('p', answer === null ? 'N' : 'S' + answer, m);
      return answer;
    },
  };
  const end = (): void => {
    if (done) return;
    done = true;
    // Put back exactly what was there, unless the page has since replaced our function with its own.
    if (w.alert === ours.alert) w.alert = before.alert as Window['alert'];
    if (w.confirm === ours.confirm) w.confirm = before.confirm as Window['confirm'];
    if (w.prompt === ours.prompt) w.prompt = before.prompt as Window['prompt'];
    try {
      w.removeEventListener(stopType, end, true);
      w.removeEventListener('pagehide', end, true);
    } catch {
      // the page broke removeEventListener; our listeners die with the document
    }
    if (wake) wake();
  };
  w.alert = ours.alert;
  w.confirm = ours.confirm;
  w.prompt = ours.prompt;
  try {
    w.addEventListener(stopType, end, true);
    w.addEventListener('pagehide', end, true);
  } catch {
    // a page that broke addEventListener still gets the timeout below
  }
  try {
    w.setTimeout(end, maxMs);
  } catch {
    // nothing else to do
  }
  await {
    then(resolve: (v?: unknown) => void): void {
      if (done) resolve();
      else wake = resolve;
    },
  };
  return out;
}

/** Reads `dialogGuard`'s report (in the worker). Malformed input ends the list; nothing in it is executed. */
export function decodeDialogReport(raw: unknown, url: string, at = Date.now()): PageDialog[] {
  if (typeof raw !== 'string') return [];
  const out: PageDialog[] = [];
  let i = 0;
  const field = (): string | undefined => {
    const colon = raw.indexOf(':', i);
    if (colon < 0) return undefined;
    const len = Number(raw.slice(i, colon));
    if (!Number.isInteger(len) || len < 0 || colon + 1 + len > raw.length) return undefined;
    const value = raw.slice(colon + 1, colon + 1 + len);
    i = colon + 1 + len;
    return value;
  };
  while (i < raw.length && out.length < 20) {
    const kind = raw[i++];
    const answer = field();
    const message = field();
    if (answer === undefined || message === undefined) break;
    const msg = message.slice(0, 2000);
    if (kind === 'a') out.push({ type: 'alert', message: msg, at, url });
    else if (kind === 'c') out.push({ type: 'confirm', message: msg, answer: answer === 'T', at, url });
    else if (kind === 'p')
      out.push({ type: 'prompt', message: msg, answer: answer === 'N' ? null : answer.slice(1, 10_001), at, url });
    else break;
  }
  return out;
}
