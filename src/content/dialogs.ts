/**
 * The content-script side of the dialog channel (see dialogProtocol.ts): announces the secret, receives reports of
 * alert/confirm/prompt calls answered in the page world, keeps a short log, and sets the answer policy. Reports are
 * data: they are logged and shown to the model with the action that caused them, and trigger nothing.
 */
import { DEFAULT_POLICY, HELLO_EVENT, MAIN_HELLO, policyEvent, reportEvent, type DialogPolicy, type DialogReport } from './dialogProtocol.ts';

const LOG_MAX = 50;
const log: DialogReport[] = [];
let total = 0;
let ready = false;
let secret = '';
let policy: DialogPolicy = { ...DEFAULT_POLICY };

function randomSecret(): string {
  const b = new Uint8Array(16);
  crypto.getRandomValues(b);
  return Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
}

/** Starts the handshake; call once, synchronously at document_start. */
export function startDialogBridge(): void {
  if (secret) return;
  secret = randomSecret();
  let answered = false;
  const onHello = (e: Event): void => {
    // The page-world script announced itself after we did: repeat our secret once, then stop answering.
    if ((e as CustomEvent).detail !== MAIN_HELLO || answered || ready) return;
    answered = true;
    window.dispatchEvent(new CustomEvent(HELLO_EVENT, { detail: `iso:${secret}` }));
  };
  window.addEventListener(HELLO_EVENT, onHello, true);
  window.addEventListener(
    reportEvent(secret),
    (e) => {
      let r: Omit<Partial<DialogReport>, 'type'> & { type?: string };
      try {
        r = JSON.parse(String((e as CustomEvent).detail)) as typeof r;
      } catch {
        return;
      }
      if (r.type === 'ready') {
        ready = true;
        window.removeEventListener(HELLO_EVENT, onHello, true);
        if (policy.confirm !== DEFAULT_POLICY.confirm || policy.prompt !== DEFAULT_POLICY.prompt) sendPolicy();
        return;
      }
      if (r.type !== 'alert' && r.type !== 'confirm' && r.type !== 'prompt') return;
      total++;
      log.push({
        type: r.type,
        message: String(r.message ?? '').slice(0, 2000),
        answer: r.type === 'alert' ? undefined : (r.answer as boolean | string | null),
        defaultValue: typeof r.defaultValue === 'string' ? r.defaultValue.slice(0, 500) : undefined,
        at: typeof r.at === 'number' ? r.at : Date.now(),
        url: String(r.url ?? location.href),
      });
      if (log.length > LOG_MAX) log.shift();
    },
    true,
  );
  window.dispatchEvent(new CustomEvent(HELLO_EVENT, { detail: `iso:${secret}` }));
}

function sendPolicy(): void {
  window.dispatchEvent(new CustomEvent(policyEvent(secret), { detail: JSON.stringify(policy) }));
}

export function setDialogPolicy(p: Partial<DialogPolicy>): DialogPolicy {
  policy = { confirm: p.confirm ?? policy.confirm, prompt: p.prompt === undefined ? policy.prompt : p.prompt };
  if (ready) sendPolicy();
  return policy;
}

/** A position in the log, to ask later what happened since. */
export function dialogMark(): number {
  return total;
}

export function dialogsSince(mark: number): DialogReport[] {
  const n = total - mark;
  return n <= 0 ? [] : log.slice(-Math.min(n, log.length));
}

export function dialogState(): { ready: boolean; policy: DialogPolicy; log: DialogReport[]; total: number } {
  return { ready, policy, log: log.slice(), total };
}

export function clearDialogLog(): void {
  log.length = 0;
}
