/**
 * Readable locators (#17): a way to name an element that survives a reload, a restyle and a reorder — role and
 * accessible name, a field's label, visible text, or a CSS selector as a last resort. Snippets saved from a run use
 * them instead of refs (which live only as long as their element).
 *
 * A locator is resolved over the same outline `dom.find` searches (visible elements with refs), so what the model
 * can find, a snippet can act on. Matching is case-insensitive with whitespace collapsed; exact matches win, and only
 * when nothing matches exactly do partial matches count. Exactly one element must match: none or several is an error
 * that says so (with the candidates), never a guess.
 */
import { deepQuerySliced } from './deepQuery.ts';
import { registry } from './refs.ts';
import { buildSnapshotSliced, linePieces, type OutlineNode, type SnapshotResult } from './snapshot.ts';
import { holderOf } from './find.ts';
import { wrapUntrusted } from '../shared/untrusted.ts';
import { isElementVisible } from './visibility.ts';
import { PageGrowth } from './pageGrowth.ts';
import { runSliced, Slicer } from './slices.ts';

export interface Locator {
  role?: string | undefined;
  name?: string | undefined;
  label?: string | undefined;
  text?: string | undefined;
  selector?: string | undefined;
}

/** Roles whose accessible name usually is the label a person reads next to the field. */
const FIELD_ROLES = new Set([
  'textbox',
  'searchbox',
  'combobox',
  'listbox',
  'spinbutton',
  'slider',
  'checkbox',
  'radio',
  'switch',
]);

export class LocatorError extends Error {
  constructor(
    message: string,
    readonly code: 'locator-none' | 'locator-many',
  ) {
    super(message);
  }
}

const norm = (s: string | undefined): string => (s ?? '').replace(/\s+/g, ' ').trim().toLowerCase();

/** `role="button" name="Log in"`: the locator as the user would write it in a call. */
export function describeLocator(l: Locator): string {
  return (['role', 'name', 'label', 'text', 'selector'] as const)
    .filter((k) => l[k] !== undefined)
    .map((k) => `${k}=${JSON.stringify(l[k])}`)
    .join(' ');
}

interface Candidate {
  node: OutlineNode;
  ref: string;
}

/** A line without a ref (text, heading, list item) and the element behind it: a locator's second choice (#43). */
interface LineCandidate {
  node: OutlineNode;
  el: Element;
}

/** The elements a locator can name, and whether the search covered the whole page. */
interface Candidates {
  all: Candidate[];
  /** Lines without a ref, when the walk kept their elements (`locate` only). */
  lines: LineCandidate[];
  complete: boolean;
  /** The walk stopped because its character budget was full (not its deadline). */
  overBudget: boolean;
}

/**
 * A locator's walk budget: what dom.find's was before #24 halved it. A replayed step must find its one element and
 * has no note to hand a model, so it keeps the wider reach (its deadline, LOCATE_MS, still bounds it).
 */
const LOCATE_CHARS = 600_000;
/**
 * Describing an action's target happens before every action, so it gets a smaller budget: a page past it gets a CSS
 * path, since a readable locator cannot be shown to name one element without seeing the whole page.
 */
const DESCRIBE_CHARS = 150_000;
const DESCRIBE_MS = 400;
/**
 * Elements past which describing a target does not try that walk at all (#24, docs/decisions.md "#24 the locator
 * before each action"). The walk's outline stops at DESCRIBE_CHARS, about 6,500 elements of the test table (23
 * characters an element); a page of nearly eight times that many elements is taken to be past it, since its outline
 * would have to average under 3 characters an element to fit. Below it the walk runs as before, so pages where the
 * check finished keep their readable locators.
 */
const DESCRIBE_ELEMENTS = 50_000;
/** Resolving a locator (a replayed step) may search as long as a walking tool does. */
const LOCATE_MS = 20_000;
/** Counting an element's siblings for its CSS path. */
const CSS_PATH_MS = 2_000;

function collect(snap: SnapshotResult): Candidates {
  const all: Candidate[] = [];
  const lines: LineCandidate[] = [];
  const walk = (nodes: OutlineNode[]): void => {
    for (const n of nodes) {
      if (n.kind === 'element' && n.ref) all.push({ node: n, ref: n.ref });
      else if (n.kind === 'element' || n.kind === 'text') {
        const el = lineElement(n);
        if (el) lines.push({ node: n, el });
      }
      walk(n.children);
    }
  };
  walk(snap.root.children);
  return { all, lines, complete: !snap.stopped, overBudget: snap.stopped === 'budget' };
}

/** The element behind a line without a ref: a structure line's own, a text line's nearest element holding all of it. */
function lineElement(n: OutlineNode): Element | undefined {
  const p = linePieces(n);
  if (!p) return undefined;
  if (!Array.isArray(p)) return p;
  let el: Element | null = p[0]?.el ?? null;
  for (const q of p) while (el && !el.contains(q.el)) el = el.parentElement;
  return el && el !== document.body && el !== document.documentElement ? el : undefined;
}

/** Candidates found in slices that yield to the page (a synchronous walk held a 10,000-row page for a second). */
async function candidates(maxChars: number, deadline: number, lines = false): Promise<Candidates> {
  return collect(
    await buildSnapshotSliced({
      commit: false,
      render: false,
      viewportFirst: false,
      keepPieces: lines,
      maxChars,
      deadline,
      lane: '',
      hint: 'Narrow the locator, or act by ref.',
    }),
  );
}

/**
 * How well a line without a ref fits (2 exact, 1 partial, 0 not at all): its role (`text` for a text line) and its
 * name or text, as the snapshot shows them; `label` names fields only, so never a line.
 */
function fitLine(c: LineCandidate, l: Locator): number {
  if (l.label !== undefined) return 0;
  const role = c.node.kind === 'text' ? 'text' : norm(c.node.role);
  if (l.role && role !== norm(l.role)) return 0;
  const wanted = [l.name, l.text].filter((x): x is string => x !== undefined).map(norm);
  if (!wanted.length) return 0;
  // A structure line with no name reads as its text (`- listitem: Dulci`).
  const hay =
    c.node.kind === 'text'
      ? [norm(c.node.text)]
      : [norm(c.node.name), norm(c.node.children.map((k) => (k.kind === 'text' ? k.text : '')).join(' '))];
  let score = 2;
  for (const w of wanted) {
    if (hay.some((h) => h === w)) continue;
    if (w && hay.some((h) => h.includes(w))) score = 1;
    else return 0;
  }
  return score;
}

function pickLines(l: Locator, lines: LineCandidate[]): LineCandidate[] {
  const scored = lines.map((c) => ({ c, s: fitLine(c, l) })).filter((x) => x.s > 0);
  const exact = scored.filter((x) => x.s === 2);
  // A list item's line and its text's line name the same element: one hit.
  const seen = new Set<Element>();
  return (exact.length ? exact : scored).map((x) => x.c).filter((c) => !seen.has(c.el) && !!seen.add(c.el));
}

/**
 * No control fits: a line without a ref may (a paragraph by its text, `role="heading" name="Plans"`, a list item),
 * so every line the model reads names something (#43). One element, or an error naming the several.
 */
function lineHit(l: Locator, c: Candidates): Element | undefined {
  const hits = pickLines(l, c.lines);
  if (hits.length > 1)
    throw new LocatorError(
      `${hits.length} lines match ${describeLocator(l)}; a locator must name exactly one: add more of the text, or act by the ref dom.find gives each match.\n` +
        wrapUntrusted(
          hits
            .slice(0, 6)
            .map((h) => `- ${h.node.head}`)
            .join('\n'),
        ),
      'locator-many',
    );
  const hit = hits[0];
  // In a text line that merges several elements, the one whose own text holds the words (`Dismiss` in
  // `Dismiss · Tip: …` is the Dismiss span), as dom.find names it.
  return hit && hit.node.kind === 'text' ? (holderOf(hit.node, l.text ?? l.name) ?? hit.el) : hit?.el;
}

/** How well a candidate fits: 2 exact, 1 partial, 0 not at all. */
function fit(c: Candidate, l: Locator): number {
  const role = norm(c.node.role);
  const name = norm(c.node.name);
  if (l.role && role !== norm(l.role)) return 0;
  if (l.label !== undefined && !FIELD_ROLES.has(role)) return 0;
  const wanted = [l.name, l.label, l.text].filter((x): x is string => x !== undefined).map(norm);
  if (!wanted.length) return 2;
  // The text locator also matches the line's visible content (a link's text is its name; a cell's text is not).
  const hay = l.text !== undefined ? [name, norm(c.node.head.replace(/\s*\[[^\]]*\]/g, ''))] : [name];
  let score = 2;
  for (const w of wanted) {
    if (hay.some((h) => h === w)) continue;
    if (hay.some((h) => h.includes(w))) score = 1;
    else return 0;
  }
  return score;
}

function pick(l: Locator, all: Candidate[]): Candidate[] {
  const scored = all.map((c) => ({ c, s: fit(c, l) })).filter((x) => x.s > 0);
  const exact = scored.filter((x) => x.s === 2);
  return (exact.length ? exact : scored).map((x) => x.c);
}

function noneError(l: Locator, c: Candidates): LocatorError {
  const all = c.all;
  // What is there instead, so a person (or the model repairing a replay) sees what changed.
  const role = l.label !== undefined ? undefined : norm(l.role);
  const near = all
    .filter((c) =>
      role ? norm(c.node.role) === role : l.label !== undefined ? FIELD_ROLES.has(norm(c.node.role)) : true,
    )
    .slice(0, 8)
    .map((c) => `- ${c.node.head}`);
  const hint = near.length ? `\nElements of that kind on the page now:\n${wrapUntrusted(near.join('\n'))}` : '';
  return new LocatorError(
    `No element matches ${describeLocator(l)} ${c.complete ? 'on this page' : 'in the part of this big page searched'}. Find it with dom.find or dom.snapshot and act by ref, or fix the locator.${hint}`,
    'locator-none',
  );
}

/** The one visible element the locator names; LocatorError when it names none or several. */
export async function locate(l: Locator, deadline = performance.now() + LOCATE_MS): Promise<Element> {
  if (l.selector !== undefined && !l.role && !l.name && !l.label && l.text === undefined) {
    const r = await deepQuerySliced(l.selector, { limit: 200, deadline, lane: '' }).catch(() => {
      throw new LocatorError(`Invalid CSS selector ${JSON.stringify(l.selector)} in the locator.`, 'locator-none');
    });
    const found = r.found.filter((e) => isElementVisible(e));
    if (found.length !== 1)
      throw found.length
        ? new LocatorError(
            `Several visible elements match selector=${JSON.stringify(l.selector)}; a locator must name exactly one. Make it more specific.`,
            'locator-many',
          )
        : new LocatorError(
            `No visible element matches selector=${JSON.stringify(l.selector)} on this page.`,
            'locator-none',
          );
    registry.refFor(found[0]!);
    return found[0]!;
  }
  const c = await candidates(LOCATE_CHARS, deadline, true);
  const hits = pick(l, c.all);
  if (!hits.length) {
    const line = lineHit(l, c);
    if (!line) throw noneError(l, c);
    registry.refFor(line);
    return line;
  }
  if (hits.length > 1)
    throw new LocatorError(
      `${hits.length} elements match ${describeLocator(l)}: ${hits
        .slice(0, 6)
        .map((h) => h.ref)
        .join(
          ', ',
        )}${hits.length > 6 ? ', …' : ''}. A locator must name exactly one: add the role or more of the name, or act by ref.\n` +
        wrapUntrusted(
          hits
            .slice(0, 6)
            .map((h) => `- ${h.node.head}`)
            .join('\n'),
        ),
      'locator-many',
    );
  // On a page larger than the search budget, one match in the searched part is taken: locators that name an element
  // by role or text are only saved after a whole-page check showed them unique (see `locatorFor`).
  return registry.resolve(hits[0]!.ref);
}

/** Whether `l` resolves to exactly `el` on the page as it is now. */
function names(l: Locator, el: Element, all: Candidate[]): boolean {
  const hits = pick(l, all);
  return hits.length === 1 && registry.resolve(hits[0]!.ref) === el;
}

/**
 * An element's step in a CSS path: its tag, with its place among siblings of the same tag when it has any. The
 * siblings are counted by stepping outward both ways at once, and the place is counted from the nearer end
 * (`:nth-last-of-type` near the end), so a row of a 50,000-row table costs its distance to an end of its table,
 * not a copy of all its siblings (that copy, once per ancestor, was one 290 ms task before every action on the
 * 50k-row page, #24). Null past the slicer's deadline.
 */
function* pathStep(n: Element, slicer: Slicer): Generator<void, string | null, void> {
  const tag = n.localName;
  let prev = n.previousElementSibling;
  let next = n.nextElementSibling;
  let before = 0;
  let after = 0;
  while (prev && next) {
    if (prev.localName === tag) before++;
    if (next.localName === tag) after++;
    prev = prev.previousElementSibling;
    next = next.nextElementSibling;
    if (slicer.due()) yield;
    if (slicer.overtime) return null;
  }
  // One end is reached: the place counts from it. With no same-tag sibling seen yet, look on until one shows.
  const fromStart = !prev;
  let rest = fromStart ? next : prev;
  while (rest && before + after === 0) {
    if (rest.localName === tag) {
      if (fromStart) after++;
      else before++;
    }
    rest = fromStart ? rest.nextElementSibling : rest.previousElementSibling;
    if (slicer.due()) yield;
    if (slicer.overtime) return null;
  }
  if (before + after === 0) return tag;
  return fromStart ? `${tag}:nth-of-type(${before + 1})` : `${tag}:nth-last-of-type(${after + 1})`;
}

/**
 * A CSS path as the last resort: an id when it is unique, else tag:nth-of-type steps from the nearest id; empty when
 * the deadline passed first.
 */
function* cssPath(el: Element, slicer: Slicer): Generator<void, string, void> {
  const id = el.getAttribute('id');
  if (id && /^[A-Za-z][\w-]*$/.test(id) && document.querySelectorAll(`#${id}`).length === 1) return `#${id}`;
  const steps: string[] = [];
  for (let n: Element | null = el; n && n !== document.documentElement; n = n.parentElement) {
    const nid = n.getAttribute('id');
    if (nid && /^[A-Za-z][\w-]*$/.test(nid) && n !== el) {
      steps.unshift(`#${nid}`);
      break;
    }
    const step = n.parentElement ? yield* pathStep(n, slicer) : n.localName;
    if (step === null) return '';
    steps.unshift(step);
  }
  return steps.join(' > ');
}

/**
 * Whether the page is too big for the uniqueness walk to finish, known without walking it: the main document's
 * element at index DESCRIBE_ELEMENTS, looked up natively, with no wrapper per element (the wrappers the walk makes,
 * and their garbage collection, were the cost: 233-312 ms CPU before every action on the 10k- and 50k-row tables,
 * and a 165-184 ms collection in one task after it). The live collection stops at that index: 2-3 ms at 10k rows
 * and 12-15 ms at 50k, where its `length` (the whole page) took 33-71 ms at 50k and 252-463 ms at 200k. Shadow
 * roots are not counted, so a page can only look smaller than it is: then it is walked, as before.
 */
function pastDescribeBudget(): boolean {
  return document.getElementsByTagName('*').item(DESCRIBE_ELEMENTS) !== null;
}

/**
 * The most readable locator that names `el` alone on the page now: a field's label, then role and name, then
 * visible text, then a CSS selector. Readable ones only when the whole page was searched (within a small budget):
 * otherwise uniqueness is unknown and the CSS path is given, with no walk when the page's element count already
 * says it is past that budget. Undefined when there is no usable selector either.
 */
/**
 * Set after a describing walk ran out of its character budget: while the page has only grown since, the next walk
 * would too, so it is skipped (the 1k-row table is 10,000 elements, under DESCRIBE_ELEMENTS, and its walk cost
 * 230-400 ms CPU before every action). A walk stopped by its deadline does not set it: a busy machine is no sign of
 * a big page.
 */
const grown = new PageGrowth();

export async function locatorFor(el: Element): Promise<Locator | undefined> {
  const skip = pastDescribeBudget() || grown.onlyGrown();
  const c = skip ? undefined : await candidates(DESCRIBE_CHARS, performance.now() + DESCRIBE_MS);
  if (c?.overBudget) grown.mark();
  if (c?.complete) {
    const ref = registry.peek(el) ?? registry.refFor(el);
    const own = c.all.find((x) => x.ref === ref);
    const role = own?.node.role;
    const name = own?.node.name;
    const tries: Locator[] = [];
    if (own && role && name) {
      if (FIELD_ROLES.has(role)) tries.push({ label: name });
      tries.push({ role, name });
      tries.push({ text: name });
    }
    for (const t of tries) if (names(t, el, c.all)) return t;
  }
  // Past the deadline (siblings by the hundred thousand) there is no locator: the action goes on without one.
  const slicer = new Slicer(performance.now() + CSS_PATH_MS);
  const selector = await runSliced(cssPath(el, slicer), slicer, { what: 'CSS path' });
  return selector ? { selector } : undefined;
}
