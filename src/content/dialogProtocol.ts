/**
 * The channel between the page-world dialog overrides (pageWorld.iife.ts) and the content script (dialogs.ts).
 *
 * Both scripts run at document_start, before any page script. The content script picks a random secret and
 * announces it with a HELLO event; the page-world script adopts the first secret it hears and never another. From
 * then on both sides talk only on event types that contain the secret, which the page cannot guess, so it can
 * neither listen in nor forge messages. Details are JSON strings (they cross worlds as primitives).
 * What flows from the page world is data only (dialog reports); nothing in it can make Otto act.
 */
export const HELLO_EVENT = 'otto-dialog-hello';
export const MAIN_HELLO = 'main';
export const reportEvent = (secret: string): string => `otto-dialog-report-${secret}`;
export const policyEvent = (secret: string): string => `otto-dialog-policy-${secret}`;

export interface DialogPolicy {
  /** Answer to confirm(): true accepts (default), false cancels. */
  confirm: boolean;
  /** Answer to prompt(): a string (default ''), or null to cancel. */
  prompt: string | null;
}

export interface DialogReport {
  type: 'alert' | 'confirm' | 'prompt' | 'beforeunload';
  message: string;
  /** What the page got back: undefined for alert, boolean for confirm, string|null for prompt. */
  answer?: boolean | string | null;
  defaultValue?: string;
  at: number;
  url: string;
}

export const DEFAULT_POLICY: DialogPolicy = { confirm: true, prompt: '' };
