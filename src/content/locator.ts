/**
 * Readable locators (#17, #44): a way to name an element that survives a reload, a restyle, a reorder and another
 * build of the same app — role and accessible name, a field's label, its placeholder, visible text, a test id, each
 * optionally inside a list item or row found by its text; a CSS selector as a last resort. Snippets saved from a run
 * use them instead of refs (which live only as long as their element).
 *
 * A readable locator matches by Playwright's rules (`locatorRules.ts`), both when it is chosen before an action
 * (`locatorChoice.ts`: kept only when it names the acted-on element alone) and when a replayed step resolves it:
 * exactly one element must match; none or several is an error that says so (with the candidates), never a guess.
 */
import { deepQuerySliced } from './deepQuery.ts';
import { registry } from './refs.ts';
import { buildSnapshotSliced, type OutlineNode, type SnapshotResult } from './contentSnapshot.ts';
import { wrapUntrusted } from '../shared/untrusted.ts';
import { isElementVisible } from './visibility.ts';
import { PageGrowth } from './pageGrowth.ts';
import { runSliced, Slicer } from './slices.ts';
import { matchLocator, type RuleLocator } from './locatorRules.ts';
import { chooseLocator } from './locatorChoice.ts';
import { roleOf } from './roles.ts';
import { describeElement } from './describe.ts';

export interface Locator extends RuleLocator {
  selector?: string | undefined;
}

/** The keys of a locator, in the order a call shows them: the item first ("where"), then what names the element. */
export const LOCATOR_KEYS = ['item', 'role', 'name', 'label', 'placeholder', 'text', 'testid', 'selector'] as const;

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

/** `role="button" name="Log in"`: the locator as the user would write it in a call. */
export function describeLocator(l: Locator): string {
  return LOCATOR_KEYS.filter((k) => l[k] !== undefined)
    .map((k) => `${k}=${JSON.stringify(l[k])}`)
    .join(' ');
}

interface Candidate {
  node: OutlineNode;
  ref: string;
}

/** The elements a locator can name, and whether the search covered the whole page. */
interface Candidates {
  all: Candidate[];
  complete: boolean;
  /** The walk stopped because its character budget was full (not its deadline). */
  overBudget: boolean;
}

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
  const walk = (nodes: OutlineNode[]): void => {
    for (const n of nodes) {
      if (n.kind === 'element' && n.ref) all.push({ node: n, ref: n.ref });
      walk(n.children);
    }
  };
  walk(snap.root.children);
  return { all, complete: !snap.stopped, overBudget: snap.stopped === 'budget' };
}

/** Candidates found in slices that yield to the page (a synchronous walk held a 10,000-row page for a second). */
async function candidates(maxChars: number, deadline: number): Promise<Candidates> {
  return collect(
    await buildSnapshotSliced({
      commit: false,
      render: false,
      viewportFirst: false,
      maxChars,
      deadline,
      lane: '',
      hint: 'Narrow the locator, or act by ref.',
    }),
  );
}

/** What is there instead of what a locator named, so a person (or the model repairing a replay) sees what changed. */
function noneError(l: Locator): LocatorError {
  const role = l.role?.toLowerCase() ?? (l.label !== undefined || l.placeholder !== undefined ? undefined : '');
  const near: string[] = [];
  if (role !== '' && l.item === undefined)
    for (const el of matchLocator(role ? { role } : {}))
      if (near.length < 8 && (role || FIELD_ROLES.has(roleOf(el) ?? ''))) near.push(`- ${describeElement(el)}`);
  const hint = near.length ? `\nElements of that kind on the page now:\n${wrapUntrusted(near.join('\n'))}` : '';
  return new LocatorError(
    `No element matches ${describeLocator(l)} on this page. Find it with dom.find or dom.snapshot and act by ref, or fix the locator.${hint}`,
    'locator-none',
  );
}

/** How to make a locator that named several elements name one (#43): by what it has, or by one of their refs. */
function narrowing(l: Locator): string {
  if (l.text !== undefined && l.role === undefined && l.label === undefined)
    return 'give more of the text (a phrase only that element shows), or act by one of these refs';
  return 'add the role or more of the name, or act by ref';
}

function manyError(l: Locator, hits: Element[]): LocatorError {
  const refs = hits.slice(0, 6).map((h) => registry.refFor(h));
  return new LocatorError(
    `${hits.length} elements match ${describeLocator(l)}: ${refs.join(', ')}${hits.length > 6 ? ', …' : ''}. A locator must name exactly one: ${narrowing(l)}.\n` +
      wrapUntrusted(
        hits
          .slice(0, 6)
          .map((h) => `- ${describeElement(h)}`)
          .join('\n'),
      ),
    'locator-many',
  );
}

/**
 * The one element the locator names; LocatorError when it names none or several. Readable locators match by
 * Playwright's rules (`locatorRules.ts`: substring, case-insensitive; hidden elements count for label, placeholder,
 * text and test id), so a replay holds exactly where `page.getByRole(...)` and its kin would.
 */
export async function locate(l: Locator, deadline = performance.now() + LOCATE_MS): Promise<Element> {
  if (l.selector !== undefined && LOCATOR_KEYS.every((k) => k === 'selector' || l[k] === undefined)) {
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
  const { selector: _s, ...rules } = l;
  const hits = matchLocator(rules);
  if (!hits.length) throw noneError(l);
  if (hits.length > 1) throw manyError(l, hits);
  registry.refFor(hits[0]!);
  return hits[0]!;
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
 * Set after a describing walk ran out of its character budget: while the page has only grown since, the next walk
 * would too, so it is skipped (the 1k-row table is 10,000 elements, under DESCRIBE_ELEMENTS, and its walk cost
 * 230-400 ms CPU before every action). A walk stopped by its deadline does not set it: a busy machine is no sign of
 * a big page.
 */
const grown = new PageGrowth();

/**
 * The locator to record for `el` (#44): the readable one `chooseLocator` picks (Playwright's order of preference,
 * checked by Playwright's rules to name `el` alone), then a CSS selector. Readable ones only on a page small enough
 * for the outline walk to finish within a small budget: past it the CSS path is given, with no walk when the page's
 * element count already says it is past that budget. Undefined when there is no usable selector either.
 */
export async function locatorFor(el: Element): Promise<Locator | undefined> {
  const skip = pastDescribeBudget() || grown.onlyGrown();
  const c = skip ? undefined : await candidates(DESCRIBE_CHARS, performance.now() + DESCRIBE_MS);
  if (c?.overBudget) grown.mark();
  if (c?.complete) {
    const chosen = chooseLocator(el);
    if (chosen) return chosen;
  }
  // Past the deadline (siblings by the hundred thousand) there is no locator: the action goes on without one.
  const slicer = new Slicer(performance.now() + CSS_PATH_MS);
  const selector = await runSliced(cssPath(el, slicer), slicer, { what: 'CSS path' });
  return selector ? { selector } : undefined;
}
