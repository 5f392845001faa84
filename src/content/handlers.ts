/**
 * One function per content request: page reading (snapshot, find, query, text, read) and actions. Every action runs
 * inside a change-observation window and replies with what it did and what changed.
 */
import {
  REF_RE,
  type ActionReply,
  type ContentRequest,
  type DescribeReply,
  type FindReply,
  type QueryReply,
  type ReadReply,
  type SnapshotReplyWire,
  type TextReply,
  type WaitReply,
} from '../shared/contentMessages.ts';
import { describeTarget, matchesSelector } from './targetFacts.ts';
import { observeChanges } from './changes.ts';
import { readListeners } from './listeners.ts';
import { describeElement } from './describe.ts';
import { findSliced, query } from './find.ts';
import type { Article } from './read.ts';
import { READER_KEY } from './readerKey.ts';
import { registry } from './refs.ts';
import { locatorReply } from './locatorReply.ts';
import { buildSnapshotSliced, FRAME_BUDGET_MAX, indexInParent } from './contentSnapshot.ts';
import {
  ActionError,
  maybeTarget,
  dropTarget,
  resolveLocator,
  resolveSelectorTarget,
  resolveTarget,
  selectorToRef,
  type Target,
} from './targets.ts';
import { visibleTextSliced } from './text.ts';
import { pageHtml, READER_IN_PAGE_MAX } from './pageHtml.ts';
import { READER_MAX_ELEMENTS, textArticle, textRoot } from './textArticle.ts';
import { countElementsUpTo } from './flatTree.ts';
import { clickElement } from './actions/pointer.ts';
import { pressKey } from './actions/press.ts';
import { selectOptions, setChecked } from './actions/forms.ts';
import { fieldSettle } from './actions/fieldSettle.ts';
import { scrollPage } from './actions/scroll.ts';
import { pressEnterToSubmit, resolveEditable, typeText, type TypeResult } from './actions/typing.ts';
import { waitFor } from './actions/wait.ts';
import { uploadFiles } from './actions/upload.ts';
import { drag } from './gestures/drag.ts';
import { clickAt } from './gestures/pointClick.ts';
import { catchUp, pointerStep, pointerSubject, type PointerStep } from './gestures/pointerSteps.ts';
import { selectText } from './gestures/selectText.ts';
import { packOutline } from '../shared/outlineWire.ts';
import { refBoxes } from './gestures/boxes.ts';
import { errorMessage } from '../shared/errorMessage.ts';

export class CodedError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

function rootElement(root: string | undefined): Element | undefined {
  if (!root) return undefined;
  return resolveTarget(REF_RE.test(root) ? { ref: root } : { selector: root });
}

/** A walking request's own time limit when the worker gives none: well inside the worker's 30 s request timeout. */
export const WALK_TIME_MS = 20_000;

async function snapshot(req: Extract<ContentRequest, { type: 'dom.snapshot' }>): Promise<SnapshotReplyWire> {
  const t0 = performance.now();
  const root = rootElement(req.root);
  // The tree goes to the worker unrendered: it stitches child frames in and renders the tab once.
  const snap = await buildSnapshotSliced({
    root,
    maxChars: Math.min(req.maxChars ?? Infinity, FRAME_BUDGET_MAX),
    deadline: t0 + (req.timeMs ?? WALK_TIME_MS),
    render: false,
  });
  const se = document.scrollingElement ?? document.documentElement;
  return {
    url: location.href,
    title: document.title,
    // Compact on the wire: the worker puts the empty and default fields back.
    tree: packOutline(snap.root.children),
    refs: snap.refs,
    newRefs: snap.newRefs,
    frames: snap.frames,
    frameIndex: indexInParent(),
    scroll: { y: Math.round(scrollY), height: se?.scrollHeight ?? 0, viewport: innerHeight },
    ms: Math.round((performance.now() - t0) * 100) / 100,
    ...(snap.notes.length ? { notes: snap.notes } : {}),
    listeners: readListeners().mode,
  };
}

function typeSummary(el: Element, text: string, r: TypeResult): string {
  const shown =
    el.localName === 'input' && (el as HTMLInputElement).type === 'password'
      ? `${text.length} characters`
      : JSON.stringify(text.length > 80 ? text.slice(0, 79) + '…' : text);
  let s = `typed ${shown} into ${describeElement(el)}`;
  if (!r.verified)
    s += `; but the field now shows ${JSON.stringify(r.actual)} instead of ${JSON.stringify(r.expected)} (${r.note})`;
  if (r.submitted) s += '; submitted';
  else if (r.submitNote) s += `; not submitted: ${r.submitNote}`;
  return s;
}

function hoverStep(req: Extract<ContentRequest, { type: 'dom.hover' }>, el: Element | undefined): PointerStep {
  return {
    ...(el ? { el } : {}),
    ...(req.x !== undefined ? { x: req.x } : {}),
    ...(req.y !== undefined ? { y: req.y } : {}),
    ...(req.holdMs ? { holdMs: req.holdMs } : {}),
    ...(req.press ? { press: req.press } : {}),
  };
}

/**
 * The element a pointer action works on, found before it runs without side effects (undefined when it cannot be):
 * the change report watches its neighbourhood's attributes.
 */
function subjectOf(req: ContentRequest): Element | undefined {
  try {
    if (req.type === 'dom.hover') return pointerSubject(hoverStep(req, maybeTarget(req)));
    if (req.type === 'dom.drag') return maybeTarget(req);
    // A click at a point (a canvas, a chart, an SVG map): what is there; a click on an element (ref, selector,
    // locator): that element, so a toggle's class, `hidden` or `aria-*` around it is told (#43).
    if (req.type === 'dom.click')
      return req.x !== undefined && req.y !== undefined
        ? (maybeTarget(req) ?? pointerSubject({ x: req.x, y: req.y }))
        : maybeTarget(req);
  } catch {
    // the action itself says what is wrong with its target
  }
  return undefined;
}

async function act(req: ContentRequest): Promise<ActionReply> {
  if (req.type === 'dom.hover') catchUp();
  const subject = subjectOf(req);
  let done: Performed = { summary: '' };
  const { changes } = await observeChanges(
    async () => {
      done = await perform(req);
    },
    subject ? { subject } : {},
  );
  const reply: ActionReply = { action: req.type, summary: done.summary, details: done.details ?? {}, changes };
  if (done.target) reply.target = done.target;
  return reply;
}

/** What an action did: the element it worked on, its one-line summary, and the facts behind it. */
interface Performed {
  target?: string;
  summary: string;
  details?: Record<string, unknown>;
}

type Req<T extends ContentRequest['type']> = Extract<ContentRequest, { type: T }>;

/** Performs one action (inside the change window `act` opens around it). */
async function perform(req: ContentRequest): Promise<Performed> {
  switch (req.type) {
    case 'dom.click':
      return click(req);
    case 'dom.drag':
      return drag(req);
    case 'dom.select_text': {
      const el = resolveTarget(req);
      const r = selectText(el, req.text, req.occurrence);
      return { target: describeElement(el), details: { selected: r.selected }, summary: r.summary };
    }
    case 'dom.hover': {
      const el = maybeTarget(req);
      const { summary } = await pointerStep(hoverStep(req, el));
      return { ...(el ? { target: describeElement(el) } : {}), summary };
    }
    case 'dom.type': {
      const el = resolveEditable(resolveTarget(req));
      const r = typeText(el, req.text, { clear: req.clear, submit: req.submit });
      return { target: describeElement(el), details: { ...r }, summary: typeSummary(el, req.text, r) };
    }
    case 'dom.fill_form':
      return fillForm(req);
    case 'dom.select': {
      const el = resolveTarget(req);
      const r = await selectOptions(el, req.values, performance.now() + WALK_TIME_MS);
      return { target: describeElement(el), details: { selected: r.selected }, summary: r.summary };
    }
    case 'dom.check': {
      const el = resolveTarget(req);
      const r = setChecked(el, req.checked ?? true);
      return { target: describeElement(el), details: { checked: r.checked, changed: r.changed }, summary: r.summary };
    }
    case 'dom.press':
      return press(req);
    case 'dom.scroll': {
      const el = maybeTarget(req);
      const r = scrollPage({ target: el, to: req.to, direction: req.direction, pages: req.pages });
      return { ...(el ? { target: describeElement(el) } : {}), details: { ...r }, summary: r.summary };
    }
    case 'dom.upload': {
      const el = resolveTarget(req);
      const r = uploadFiles(el, req.files, { drop: req.drop });
      return { target: describeElement(el), details: { ...r }, summary: r.summary };
    }
    default:
      throw new ActionError(`Not an action: ${req.type}`);
  }
}

/** A click on an element, or at a point (in an element, or in the page). */
function click(req: Req<'dom.click'>): Performed {
  const opts = { button: req.button, clickCount: req.clickCount, modifiers: req.modifiers };
  let target: string;
  let where = '';
  if (req.x !== undefined || req.y !== undefined) {
    const r = clickAt(maybeTarget(req), req.x, req.y, opts);
    target = r.target;
    where = r.summary;
  } else {
    const el = resolveTarget(req);
    target = describeElement(el);
    clickElement(el, opts);
  }
  const kind =
    req.button === 'right'
      ? 'right-clicked'
      : req.clickCount === 2
        ? 'double-clicked'
        : req.clickCount === 3
          ? 'triple-clicked'
          : 'clicked';
  return { target, summary: `${kind} ${where || target}` };
}

/** A key pressed `count` times (after the first, on whatever has the focus then), under one time limit. */
async function press(req: Req<'dom.press'>): Promise<Performed> {
  const el = maybeTarget(req);
  // One time limit for all the presses (Tab's search for the next stop yields to the page in slices).
  const opts = {
    deadline: performance.now() + WALK_TIME_MS,
    ...(req.clipboard ? { clipboard: req.clipboard } : {}),
  };
  let last = await pressKey(el, req.key, opts);
  for (let i = 1; i < (req.count ?? 1); i++) last = await pressKey(undefined, req.key, opts);
  return {
    target: last.target,
    details: { ...last },
    summary: `pressed ${req.key}${(req.count ?? 1) > 1 ? ` ×${req.count}` : ''} on ${last.target}${last.cancelled ? ' (the page cancelled its default action)' : ''}${last.effect ? `: ${last.effect}` : ''}`,
  };
}

/** Each field in turn (a failure is told and the rest go on), then Enter on the last one when asked to submit. */
async function fillForm(req: Req<'dom.fill_form'>): Promise<Performed> {
  const results: string[] = [];
  let failed = 0;
  let last: Element | undefined;
  const deadline = performance.now() + WALK_TIME_MS;
  // The page renders the last field's change before this one's visibility and click checks read geometry
  // (fieldSettle: not after a checkbox or radio click that changed nothing else).
  const settle = fieldSettle();
  let checked = false;
  for (const [i, f] of req.fields.entries()) {
    if (i > 0) await settle.next(checked);
    checked = false;
    try {
      const el = resolveTarget(f);
      last = el;
      const r = await fillField(el, f.value, deadline);
      results.push(r.summary);
      checked = r.checked;
    } catch (e) {
      failed++;
      results.push(`${f.selector ?? f.ref}: FAILED — ${errorMessage(e)}`);
    }
  }
  settle.stop();
  if (req.submit && last && !failed) {
    const s = pressEnterToSubmit(last);
    results.push(s.submitted ? 'submitted the form' : `not submitted: ${s.submitNote}`);
  }
  const n = req.fields.length;
  return {
    details: { fields: results, failed },
    summary: `filled ${n - failed} of ${n} fields${failed ? ` (${failed} failed)` : ''}`,
  };
}

/** One form field: a checkbox or radio set, options chosen in a select or listbox, or text typed (cleared first). */
async function fillField(
  el: Element,
  value: Req<'dom.fill_form'>['fields'][number]['value'],
  deadline: number,
): Promise<{ summary: string; checked: boolean }> {
  if (typeof value === 'boolean') return { summary: setChecked(el, value).summary, checked: true };
  if (
    Array.isArray(value) ||
    el.localName === 'select' ||
    (el.localName !== 'input' && el.getAttribute('role') === 'listbox')
  ) {
    const values = Array.isArray(value) ? value : [value];
    return { summary: (await selectOptions(el, values, deadline)).summary, checked: false };
  }
  const editable = resolveEditable(el);
  if (editable.localName === 'input' && ['checkbox', 'radio'].includes((editable as HTMLInputElement).type))
    return { summary: setChecked(editable, value === 'true' || value === 'on').summary, checked: true };
  return { summary: typeSummary(editable, value, typeText(editable, value, { clear: true })), checked: false };
}

const isRef = (s: string) => REF_RE.test(s);

/**
 * Selector targets (an action's `selector`, a form field's, a `root` given as a selector) become refs before the
 * request runs, found by the sliced walk: the synchronous search held a big page's main thread for seconds (#24).
 * `dom.query` walks itself; `dom.wait_for` waits for its selector to appear, which is not a target to resolve now
 * (only its `root` is).
 */
async function resolveSelectors(req: ContentRequest): Promise<void> {
  if (req.type === 'dom.query') return;
  const deadline = performance.now() + WALK_TIME_MS;
  const t = req as Target & { root?: string; fields?: Target[] };
  if (req.type === 'dom.wait_for') {
    if (req.root && !isRef(req.root)) req.root = await selectorToRef(req.root, deadline);
    return;
  }
  // dom.locator's own resolve request answers LocatorError as it is; describing a target needs the element itself.
  const own = req.type !== 'dom.locator';
  if (own) await resolveLocator(t, deadline);
  if (req.type === 'dom.drag' && req.toLocator) req.toRef = await dropTarget(req.toLocator, deadline);
  if (t.selector && !t.ref) {
    t.ref = await selectorToRef(t.selector, deadline);
    delete t.selector;
  }
  if (t.root && !isRef(t.root)) t.root = await selectorToRef(t.root, deadline);
  for (const f of Array.isArray(t.fields) ? t.fields : []) {
    if (f.ref) continue;
    try {
      if (f.selector) await resolveSelectorTarget(f, deadline);
      else if (own) await resolveLocator(f, deadline);
    } catch {
      continue; // reported per field by fill_form, as before
    }
  }
}

export async function handle(req: ContentRequest): Promise<unknown> {
  if ('prefix' in req) registry.setPrefix(req.prefix);
  await resolveSelectors(req);
  switch (req.type) {
    case 'content.ping':
      return { url: location.href, isTop: window.top === window, title: document.title };
    case 'dom.snapshot':
      return snapshot(req);
    case 'dom.find': {
      const r: FindReply = await findSliced({
        text: req.text,
        role: req.role,
        name: req.name,
        limit: req.limit,
        deadline: performance.now() + (req.timeMs ?? WALK_TIME_MS),
      });
      return r;
    }
    case 'dom.query': {
      const r: QueryReply = await query(req.selector, req.limit, {
        deadline: performance.now() + (req.timeMs ?? WALK_TIME_MS),
      });
      return r;
    }
    case 'dom.describe': {
      const el = resolveTarget(req);
      const r: DescribeReply = describeTarget(el);
      if (req.matches !== undefined) r.matches = matchesSelector(el, req.matches);
      return r;
    }
    case 'dom.text': {
      const el = maybeTarget(req);
      const r: TextReply = await visibleTextSliced(
        el ?? document,
        req.maxChars ?? 20_000,
        performance.now() + (req.timeMs ?? WALK_TIME_MS),
      );
      return r;
    }
    case 'dom.read': {
      const elements = countElementsUpTo(document, READER_MAX_ELEMENTS + 1);
      // Too big for the article reader, or no article in it: the visible text, read here in slices (the reader's own
      // fallback is one piece).
      if (elements > READER_MAX_ELEMENTS || req.textOnly)
        return textArticle(
          await visibleTextSliced(textRoot(), req.maxChars ?? 50_000, performance.now() + WALK_TIME_MS),
          elements > READER_MAX_ELEMENTS,
        );
      // Too big to read here in one task: the HTML, for the worker's offscreen document to read (#24).
      if (req.offPage && elements > READER_IN_PAGE_MAX) return pageHtml();
      const reader = (globalThis as unknown as Record<symbol, ((max: number) => Article) | undefined>)[READER_KEY];
      if (!reader) throw new CodedError('The article reader is not loaded in this frame.', 'reader-missing');
      const r: ReadReply = reader(req.maxChars ?? 50_000);
      return r;
    }
    case 'dom.boxes':
      return refBoxes(req.limit);
    case 'dom.locator':
      return await locatorReply(req);
    case 'dom.wait_for': {
      const root = rootElement(req.root);
      const r: WaitReply = await waitFor({
        ...(root ? { root } : {}),
        text: req.text,
        ref: req.ref,
        selector: req.selector,
        state: req.state,
        timeoutMs: req.timeoutMs,
      });
      return r;
    }
    default:
      return act(req);
  }
}
