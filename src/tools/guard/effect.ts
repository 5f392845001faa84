/**
 * The effect of a call, judged from its target before it runs (issue #42): pure, from what the content script says
 * about the element (src/content/actionFacts.ts — role, accessible name, visible text, its icon's label words, the
 * form it would submit and where, the field it writes). Page words decide only which question is asked, never that
 * none is: a page that hides a "Send" under a neutral name gets a call judged as it looks, and the target rule and the
 * data-flow guard still apply.
 *
 * Kinds: `read` (no state change: following a link, opening a section, paging, switching a tab, sorting, searching),
 * `fill` (typing into a field: nothing is committed until a send or save), `send`, `buy`, `delete`, `settings`,
 * `download`. The scope gate asks about the last five (GATED_EFFECTS in src/shared/taskScope.ts).
 */
import type { TargetElement } from '../../shared/callTarget.ts';
import type { EffectKind } from '../../shared/taskScope.ts';

// Words in English first, then German, French, Spanish, Italian, Dutch, Portuguese. Matched on word starts.
const WORDS: [Exclude<EffectKind, 'read' | 'fill'>, RegExp][] = [
  [
    'buy',
    /\b(buy|purchase|checkout|check out|place (?:my |your |the )?order|order now|complete (?:my |the )?order|confirm (?:and pay|order|purchase)|pay\b|pay now|subscribe|donate|kaufen|jetzt kaufen|bestellen|zahlungspflichtig|bezahlen|acheter|commander|payer|comprar|pagar|acquista|paga\b|ordina|kopen|afrekenen|bestellen)/i,
  ],
  [
    'delete',
    /\b(delete|remove|discard|erase|destroy|move to (?:trash|bin)|empty (?:trash|bin)|trash (?:it|this|all|message|email|mail)|löschen|entfernen|supprimer|effacer|eliminar|borrar|elimina|cancella|verwijderen|excluir|apagar)/i,
  ],
  [
    'settings',
    /\b(save (?:changes|settings|preferences)|apply (?:changes|settings)|update (?:settings|preferences)|turn (?:on|off)|enable|disable|forward(?:ing)? all|auto.?forward|einstellungen speichern|aktivieren|deaktivieren|enregistrer les (?:paramètres|modifications)|activer|désactiver|guardar cambios|activar|desactivar|salva (?:modifiche|impostazioni)|attiva|disattiva|opslaan)/i,
  ],
  [
    'send',
    /\b(send|submit|post\b|post (?:it|this|comment|reply)|publish|reply|respond|forward|share|tweet|comment\b|invite|senden|absenden|abschicken|antworten|veröffentlichen|envoyer|répondre|publier|enviar|responder|publicar|invia|rispondi|pubblica|verzenden|versturen|beantwoorden|plaatsen)/i,
  ],
  ['download', /\b(download|export|herunterladen|télécharger|descargar|scarica|downloaden|baixar)/i],
];

/** Nouns that name a place (a folder, a page) when written as visible text, and an action only on an icon. */
const PLACE_NOUNS =
  /^(trash|bin|deleted|sent|outbox|drafts?|settings|preferences|downloads?|orders?|cart|basket|papierkorb|corbeille|papelera|cestino|prullenbak)$/i;
const ICON_ONLY = /\b(trash|bin|garbage|rubbish)\b/i;
const SETTINGS_SAVE = /^(save|speichern|enregistrer|guardar|salva|opslaan|apply|update)$/i;

/** Roles whose activation opens, selects or shows something: never a commitment on their own. */
const NAVIGATION_ROLES = new Set(['link', 'tab', 'treeitem', 'menuitemradio', 'option', 'heading', 'row', 'listitem']);

/** Words of a target in the order that says most: its own label words (name, text), then its icon's. */
function kindsFromWords(words: string): EffectKind[] {
  const out: EffectKind[] = [];
  for (const [kind, re] of WORDS) if (re.test(words)) out.push(kind);
  // "Send" is implied by a buy ("Confirm and pay") or a delete's "Remove": one question, the most specific kind.
  if (out.includes('send') && out.length > 1) return out.filter((k) => k !== 'send');
  return out;
}

/** What a click (or Enter/Space on it) on `el` would do. */
function clickEffects(el: TargetElement): EffectKind[] {
  const text = el.text ?? '';
  const label = `${el.name} ${text}`.trim();
  // A link or a tab opens a place: following it changes nothing (a download link says so: the download attribute
  // is in its words, or its destination's file is).
  if (NAVIGATION_ROLES.has(el.role) && !el.submits) {
    if (el.role === 'link' && /\bdownload\b/i.test(`${label} ${el.hints ?? ''}`)) return ['download'];
    return [];
  }
  if (PLACE_NOUNS.test(el.name.trim()) || PLACE_NOUNS.test(text.trim())) return [];
  const own = kindsFromWords(label);
  if (own.length) return own;
  // An icon button (no words of its own): its label words say what it is.
  const hints = el.hints ?? '';
  const iconKinds = kindsFromWords(hints);
  if (iconKinds.length) return iconKinds;
  if (!label && ICON_ONLY.test(hints)) return ['delete'];
  // "Save" alone commits what the page holds: a settings page's form, a profile.
  if (SETTINGS_SAVE.test(el.name.trim()) || SETTINGS_SAVE.test(text.trim())) return ['settings'];
  // A form submission with no telling words: a GET form reads (a search), a POST form sends.
  if (el.submits) return el.formMethod === 'GET' ? [] : ['send'];
  return NEUTRAL.test(el.name.trim()) && NEUTRAL.test(text.trim()) ? neutralEffects(el) : [];
}

/** A button whose own word says nothing ("OK", "Continue", "Go", an arrow, an icon without a label). */
const NEUTRAL =
  /^(?:ok|okay|yes|continue|go|confirm|done|proceed|next|weiter|ja|bestätigen|oui|continuer|valider|sí|si|continuar|confirmar|avanti|conferma|doorgaan|bevestigen|[→›»>✓✔])?$/i;
/** A dialog title or section heading of a message being written. */
const COMPOSE_HEADING =
  /\b(new message|compose|write (?:a |an )?(?:message|comment|reply|review)|reply|neue nachricht|nouveau message|nuevo mensaje|nuovo messaggio|nieuw bericht)\b/i;
/** The label of a field a message is written in, as the card's context lines start (`To: …`, `Message: …`). */
const MESSAGE_LINE =
  /^(?:to|cc|bcc|recipients?|message|body|comment|reply|an|à|para|destinatario|aan|nachricht|commentaire|mensaje|messaggio|bericht)\s*:/i;

/**
 * What a neutral button commits, from what it sits with: its dialog's title or section heading ("Delete this email?"
 * → delete; "New message" → send), else the fields around it (a To or Message field: a compose area → send). What
 * stays undecidable: a neutral button with no telling heading and no telling fields — its script may do anything.
 */
function neutralEffects(el: TargetElement): EffectKind[] {
  const heading = el.heading ?? '';
  const fromHeading = kindsFromWords(heading);
  if (fromHeading.length) return fromHeading;
  if (COMPOSE_HEADING.test(heading)) return ['send'];
  if ((el.context ?? []).some((line) => MESSAGE_LINE.test(line))) return ['send'];
  return [];
}

/** Names of a place that deletes what is dropped onto it (a Trash folder, a bin icon). */
const DROP_DELETES =
  /^(?:trash|bin|recycle bin|deleted(?: items| messages)?|delete|remove|papierkorb|gelöschte elemente|corbeille|éléments supprimés|papelera|elementos eliminados|cestino|posta eliminata|prullenbak|verwijderde items|lixeira)$/i;

/**
 * Where a drag drops (dom.drag onto an element): onto a Trash folder or a bin icon deletes; onto a short-labelled
 * target whose words commit ("Share", "Send to …") that kind. A list item, a row or a column is a reorder or a move
 * ("Done", "Archive", a todo named "Buy milk"): nothing is committed.
 */
function dropEffects(to: NonNullable<TargetElement['dropOnto']>): EffectKind[] {
  const words = [to.name, to.text ?? ''].map((w) => w.trim());
  if (words.some((w) => DROP_DELETES.test(w))) return ['delete'];
  if (!words.some(Boolean) && ICON_ONLY.test(to.hints ?? '')) return ['delete'];
  if (NAVIGATION_ROLES.has(to.role) && to.role !== 'link' && to.role !== 'treeitem') return [];
  const label = words.find(Boolean) ?? '';
  if (label.split(/\s+/).length > 3) return [];
  return kindsFromWords(`${label} ${to.hints ?? ''}`).filter((k) => k === 'send' || k === 'delete');
}

/** A field a search or a filter writes: typing there reads. */
function isSearchField(el: TargetElement): boolean {
  return (
    el.role === 'searchbox' ||
    /\b(search|query|q|filter|find|suche|recherche|buscar|cerca|zoeken)\b/i.test(el.field ?? '')
  );
}

/** What writing a value into `el` would do (dom.type, dom.fill_form, dom.select, dom.check). */
function writeEffects(el: TargetElement | undefined, toggles: boolean): EffectKind[] {
  if (!el) return ['fill'];
  if (isSearchField(el)) return [];
  const words = `${el.name} ${el.field ?? ''} ${el.hints ?? ''}`;
  // A switch, or a checkbox whose words are a setting's ("Forward all mail to …", "Enable …"): a setting changes.
  if (toggles && (el.role === 'switch' || kindsFromWords(words).includes('settings'))) return ['settings'];
  return toggles ? [] : ['fill'];
}

const FIELD_ROLES = new Set(['textbox', 'searchbox', 'combobox', 'spinbutton']);
/** Fields where Enter posts what was typed, outside any form (a chat box, a comment field). */
const MESSAGE_FIELD =
  /\b(message|comment|chat|reply|tweet|post|nachricht|kommentar|commentaire|mensaje|comentario|messaggio|bericht)\b/i;

/**
 * Whether Enter in `el` sends: in a form, when the form posts (a GET form searches); outside any form, when the field
 * is a message's or a comment's (a chat box). Enter in another field outside a form — a todo list's "New todo", a
 * filter — is the page's own script adding or filtering locally.
 */
function enterSends(el: TargetElement): boolean {
  if (isSearchField(el)) return false;
  if (el.formAction) return el.formMethod !== 'GET';
  return isMessageField(el);
}

function isMessageField(el: TargetElement): boolean {
  return MESSAGE_FIELD.test(`${el.name} ${el.field ?? ''} ${el.hints ?? ''}`);
}

export interface EffectInput {
  /** The qualified tool name (`dom.click`). */
  tool: string;
  args: Record<string, unknown>;
  /** The element it targets, as the content script describes it (absent: no target, or not found). */
  element?: TargetElement | undefined;
}

/**
 * The kinds of effect a call may have ([] for a call that changes nothing the user would care about: a scroll, a
 * hover, following a link). Only page-acting dom tools are judged here; other tools keep their own rules.
 */
export function effectsOf({ tool, args, element }: EffectInput): EffectKind[] {
  switch (tool) {
    case 'dom.click':
      if (args.button === 'right' || args.button === 'middle') return [];
      return element ? clickEffects(element) : [];
    case 'dom.drag':
      // Onto an element: judged by where it lands. By an offset: a slider or a thumb ("slide to pay"), by its words.
      // (A destination that could not be described leaves the source's words, as before.)
      if (element?.dropOnto) return dropEffects(element.dropOnto);
      // (A destination that could not be described leaves the source's words, as before.)
      return element ? clickEffects(element) : [];
    case 'dom.press': {
      const key = typeof args.key === 'string' ? args.key.split('+').pop() : '';
      if (key !== 'Enter' && key !== ' ' && key !== 'Space') return [];
      if (!element) return [];
      if (FIELD_ROLES.has(element.role)) return key === 'Enter' && enterSends(element) ? ['send'] : [];
      return clickEffects(element);
    }
    case 'dom.type': {
      const base = writeEffects(element, false);
      return args.submit === true && element && enterSends(element) ? [...base, 'send'] : base;
    }
    case 'dom.fill_form':
      // Submit is Enter in the last field (the element described): a search box or a GET form's field reads.
      if (args.submit !== true) return ['fill'];
      if (element && (isSearchField(element) || (element.formMethod === 'GET' && !isMessageField(element))))
        return ['fill'];
      return ['fill', 'send'];
    case 'dom.select':
      return writeEffects(element, true);
    case 'dom.check':
      return writeEffects(element, true);
    default:
      return [];
  }
}
