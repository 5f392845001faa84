/**
 * Runs in the page's MAIN world at document_start (manifest content script, world MAIN), before any page script.
 * Replaces alert/confirm/prompt so a page's dialog can never block Otto's loop: each call is answered at once by the
 * policy the content script set (default: confirm → true, prompt → '') and reported to the content script over the
 * secret channel described in dialogProtocol.ts. Keeps its own references to the DOM functions it uses, taken before
 * the page could replace them.
 */
import { DEFAULT_POLICY, HELLO_EVENT, MAIN_HELLO, policyEvent, reportEvent, type DialogPolicy } from './dialogProtocol.ts';

(() => {
  const w = window as Window & { __ottoDialogs?: boolean };
  const marker = Symbol.for('otto.dialogs');
  if ((w as unknown as Record<symbol, boolean>)[marker]) return;
  Object.defineProperty(w, marker, { value: true });

  const addListener = EventTarget.prototype.addEventListener;
  const removeListener = EventTarget.prototype.removeEventListener;
  const dispatch = EventTarget.prototype.dispatchEvent;
  const stopImmediate = Event.prototype.stopImmediatePropagation;
  const CE = CustomEvent;
  const stringify = JSON.stringify;
  const parse = JSON.parse;
  const now = Date.now;
  const str = String;
  const detailGetter = Object.getOwnPropertyDescriptor(CustomEvent.prototype, 'detail')!.get!;
  const getDetail = (e: Event): unknown => {
    try {
      return detailGetter.call(e);
    } catch {
      return undefined;
    }
  };

  let secret: string | undefined;
  let policy: DialogPolicy = { ...DEFAULT_POLICY };
  const pending: string[] = [];

  const send = (payload: object): void => {
    const json = stringify(payload);
    if (!secret) {
      if (pending.length < 50) pending.push(json);
      return;
    }
    dispatch.call(w, new CE(reportEvent(secret), { detail: json }));
  };

  const onPolicy = (e: Event): void => {
    try {
      const p = parse(str(getDetail(e))) as Partial<DialogPolicy>;
      policy = { confirm: typeof p.confirm === 'boolean' ? p.confirm : policy.confirm, prompt: p.prompt === null || typeof p.prompt === 'string' ? p.prompt : policy.prompt };
    } catch {
      // ignore malformed
    }
  };

  const onHello = (e: Event): void => {
    const detail = getDetail(e);
    if (typeof detail !== 'string' || !detail.startsWith('iso:') || secret) return;
    stopImmediate.call(e);
    secret = detail.slice(4);
    removeListener.call(w, HELLO_EVENT, onHello, true);
    addListener.call(w, policyEvent(secret), onPolicy, true);
    send({ type: 'ready' });
    for (const json of pending.splice(0)) dispatch.call(w, new CE(reportEvent(secret), { detail: json }));
  };
  addListener.call(w, HELLO_EVENT, onHello, true);
  dispatch.call(w, new CE(HELLO_EVENT, { detail: MAIN_HELLO }));

  const url = (): string => {
    try {
      return location.href;
    } catch {
      return '';
    }
  };
  const define = (name: 'alert' | 'confirm' | 'prompt', fn: (...args: never[]) => unknown): void => {
    Object.defineProperty(w, name, { value: fn, writable: true, configurable: true, enumerable: true });
  };
  define('alert', function alert(message?: unknown) {
    send({ type: 'alert', message: str(message ?? ''), at: now(), url: url() });
  });
  define('confirm', function confirm(message?: unknown) {
    const answer = policy.confirm;
    send({ type: 'confirm', message: str(message ?? ''), answer, at: now(), url: url() });
    return answer;
  });
  define('prompt', function prompt(message?: unknown, defaultValue?: unknown) {
    const answer = policy.prompt;
    send({ type: 'prompt', message: str(message ?? ''), answer, defaultValue: defaultValue === undefined ? undefined : str(defaultValue), at: now(), url: url() });
    return answer;
  });
})();
