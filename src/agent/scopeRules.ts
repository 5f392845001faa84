/**
 * The task's scope from the user's words alone (issue #42): rules over the text of the user's own messages — never a
 * page, a tool output or the model's words — so nothing a page says can widen what the task may do. A later message
 * widens the scope (widenScope); the run keeps it, persisted (RunState.taskScope).
 *
 * `read` and `fill` are in every scope: reading, opening, searching and typing commit nothing. The rest come from
 * verbs: "Send Bob a short hello" → send; "delete these three emails" → delete; "buy the cheapest one" → buy; "turn
 * on forwarding" → settings; "download the invoice" → download. English first; common German, French, Spanish,
 * Italian, Dutch and Portuguese verbs too. Sites: the hosts the user's words name, and the run's own tab (the page
 * the user started from is the user's choice, not a page's).
 */
import type { EffectKind, TaskScope } from '../shared/taskScope.ts';

/** English verbs, whole words (an "orders" page to summarise is not "order"); stems of other languages. */
const en = (words: string) => new RegExp(`\\b(?:${words})\\b`, 'i');
const stems = (words: string) => new RegExp(`\\b(?:${words})`, 'i');

const VERBS: [EffectKind, RegExp[]][] = [
  [
    'send',
    [
      en(
        "send|reply|respond|answer (?:the|this|that|him|her|them|\\w+['’]s)|forward (?:it|this|that|the|these|those|him|her|them|to)|post|publish|tweet|comment|submit|share|message (?:him|her|them|my|our|your)|e-?mail (?:him|her|them)|email (?:the|this|it) \\w+ to|invite|contact|write (?:to|back|a (?:reply|comment|message|post|review))|rsvp|sign (?:up|me up)|register|apply|book|schedule|tell (?!me\\b|us\\b|whether|if\\b|what|how|which|why)\\w+|leave (?:a|an) (?:[\\w-]+ )?(?:review|comment|rating|note|message)",
      ),
      /^\s*e-?mail\b/i,
      stems(
        'senden|schick|antworte|envoie|envoyer|réponds|publie|envía|enviar|responde|invia|rispondi|scrivi|stuur|verstuur|envie',
      ),
    ],
  ],
  [
    'buy',
    [
      en(
        'buy|purchase|(?<!(?:my|the|your|an|this|that|our|his|her|an) )order|place (?:the|my|your|an|this|that|our) order|pay|check ?out|checkout|subscribe|donate|rent|reserve|book|renew|tip (?:the|him|her|them)|have (?:it|them) delivered|(?:get|grab) (?:me )?(?:\\w+ ){0,2}tickets?',
      ),
      stems(
        'kauf|bestell(?!ung)|bezahl|achète|acheter|commande|paie|payer|compra|pide|paga|acquista|ordina|koop|bestel(?!l)|betaal',
      ),
    ],
  ],
  [
    'delete',
    [
      en(
        'delete|remove|trash|bin (?:it|them|these|those)|discard|erase|wipe|archive|cancel|clear (?:out|all|my|the)|clean ?up|empty (?:the|my)|get rid of|take (?:\\w+ ){1,4}down',
      ),
      stems('lösch|entfern|supprime|efface|borra|elimina|cancella|verwijder|apaga|exclua'),
    ],
  ],
  [
    'settings',
    [
      en(
        'set ?up|turn (?:on|off)|switch (?:on|off)|enable|disable|configure|unsubscribe|make (?:my|the) (?:\\w+ )?(?:private|public)|(?:dark|light) mode|change (?:my|the) (?:\\w+ )?(?:password|address|email|name|preferences?|settings?|plan|language)|update (?:my|the) (?:profile|address|settings?|preferences?|details)|save (?:my|the) (?:changes|settings|preferences)',
      ),
      stems(
        "aktivier|deaktivier|einstellung ändern|stell\\w* .{0,40}\\bum\\b|paramètres|désactive|active (?:la|le|les|l['’])|configura|desactiva|disattiva|zet (?:aan|uit)",
      ),
    ],
  ],
  [
    'download',
    [
      en(
        'download|export|save (?:it|them|the \\w+) (?:as|to)|to my (?:computer|laptop|disk|drive)|(?:grab|get) (?:the|my) (?:pdf|csv|file|attachments?)',
      ),
      stems('herunterlad|herunter\\b|télécharge|descarga|scarica|baixe'),
    ],
  ],
];

/**
 * Words that ask for no effect though a verb sits in them: a question about the page ("What does the delete button
 * do?"), how to do something ("tell me how to turn on 2FA"), a negated verb ("don't submit it"), a draft the user
 * will send themselves ("draft a reply … let me check it"), an out-of-office reply (a setting, not a message).
 */
const QUESTION = /^\s*(?:what|which|how|is|are|was|were|does|do|did|where|when|why|who|whose)\b[^?]*\?\s*$/i;
const NOT_ASKED: RegExp[] = [
  /\bhow (?:to|do i|can i|would i) (?:\w+ ){1,2}/gi,
  /\b(?:don['’]?t|do not|never|without) (?:\w+ ){1,2}/gi,
  /\bdraft (?:a|an) \w+/gi,
  /\bout[- ]of[- ]office reply/gi,
];

/** The sentences of a message with what asks nothing taken out. */
function askingParts(text: string): string[] {
  return text
    .split(/(?<=[.!?;])\s+|\n+/)
    .filter((s) => !QUESTION.test(s))
    .map((s) => NOT_ASKED.reduce((acc, re) => acc.replace(re, ' '), s));
}

/** Hosts the text names: `mail.test`, `https://shop.example/cart` → `shop.example` (lower case, no `www.`). */
export function hostsNamed(text: string): string[] {
  const out = new Set<string>();
  const re = /\b(?:https?:\/\/)?((?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,24})(?::\d+)?\b/gi;
  for (const m of text.matchAll(re)) {
    const host = m[1]!.toLowerCase().replace(/^www\./, '');
    // "e.g", "i.e" and file names ("report.pdf") are not sites.
    if (/\.(pdf|docx?|xlsx?|csv|txt|png|jpe?g|gif|zip|html?)$/.test(host)) continue;
    out.add(host);
  }
  return [...out];
}

/** The kinds of effect a message asks for (read and fill always). */
export function effectsAsked(text: string): EffectKind[] {
  const out: EffectKind[] = ['read', 'fill'];
  const parts = askingParts(text);
  for (const [kind, res] of VERBS) if (res.some((re) => parts.some((p) => re.test(p)))) out.push(kind);
  return out;
}

/** "summarise my inbox" — the request in a few words, for the card. */
function askedWords(text: string): string {
  const one = text
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[.!?]+$/, '');
  const short = one.length > 80 ? `${one.slice(0, 77)}…` : one;
  return short.charAt(0).toLowerCase() + short.slice(1);
}

/** The scope one user message asks for; `runHost` is the host of the tab the user started the run on. */
export function scopeFromWords(text: string, runHost?: string): TaskScope {
  const sites = hostsNamed(text);
  if (runHost && !sites.includes(runHost)) sites.unshift(runHost);
  return { effects: effectsAsked(text), sites, asked: askedWords(text) };
}
