/**
 * Worker → content script requests, sent with `chrome.tabs.sendMessage(tabId, msg, { frameId })`, and the replies.
 * The content script validates each request on receipt; the worker validates each reply.
 *
 * Page operations (`dom.*`) run in one frame. Refs carry their frame (`e12` top frame, `f3e12` frame 3), so the
 * worker routes a ref to its frame; `prefix` tells a frame which prefix its new refs get.
 *
 * Written with zod/mini (functions, not methods): this file is bundled into the content script of every frame,
 * where the classic API would cost ~90 KB.
 */
import { z } from './zodMini.ts';
import { unpackOutline, type OutlineWireNode } from './outlineWire.ts';

/** A ref as text: optional frame (`f3`), the document's two-letter tag (src/content/refs.ts), `e` and a number. */
export const REF_SOURCE = '(?:f\\d+)?(?:[a-df-z]{2})?e\\d+';
export const REF_RE = new RegExp(`^${REF_SOURCE}$`);
const text = (min: number, max: number) => z.string().check(z.minLength(min), z.maxLength(max));
const upTo = (max: number) => z.string().check(z.maxLength(max));
const int = (min: number, max: number) => z.int().check(z.gte(min), z.lte(max));
const ref = z.string().check(z.regex(REF_RE, 'a ref looks like kqe12 (as dom.snapshot shows it)'));
const selector = text(1, 2000);
const prefix = z.optional(z.string().check(z.regex(/^(?:f\d+)?$/)));
/**
 * A readable locator (#17, #44, content/locator.ts): role and accessible name, a field's label, its placeholder,
 * text, a test id (each optionally inside the list item or row whose text holds `item`), or CSS.
 */
export const Locator = z.object({
  item: z.optional(text(1, 500)),
  role: z.optional(text(1, 50)),
  name: z.optional(text(1, 500)),
  label: z.optional(text(1, 500)),
  placeholder: z.optional(text(1, 500)),
  text: z.optional(text(1, 500)),
  testid: z.optional(text(1, 200)),
  selector: z.optional(selector),
});
export type Locator = z.infer<typeof Locator>;
const target = { ref: z.optional(ref), selector: z.optional(selector), locator: z.optional(Locator) };
const hasTarget = z.refine<{ ref?: string; selector?: string; locator?: Locator }>(
  (t) => !!(t.ref || t.selector || t.locator),
  'give ref, selector or locator',
);
const coord = z.number().check(z.gte(-100_000), z.lte(100_000));
const hasTargetOrPoint = z.refine<{ ref?: string; selector?: string; locator?: Locator; x?: number; y?: number }>(
  (t) => !!(t.ref || t.selector || t.locator || (t.x !== undefined && t.y !== undefined)),
  'give ref, selector or locator, or x and y in the viewport',
);
const hasTargetPointOrPress = z.refine<{
  ref?: string;
  selector?: string;
  locator?: Locator;
  x?: number;
  y?: number;
  press?: string;
  holdMs?: number;
}>(
  (t) =>
    !!(
      t.ref ||
      t.selector ||
      t.locator ||
      (t.x !== undefined && t.y !== undefined) ||
      t.press ||
      t.holdMs !== undefined
    ),
  'give ref, selector or locator, or x and y in the viewport, or press/holdMs where the pointer is',
);
/** Otto's clipboard entry handed to a paste: the frame checks it was copied from its own origin. */
export const ClipboardEntry = z.object({
  origin: z.string(),
  text: upTo(1_000_000),
  html: z.optional(upTo(2_000_000)),
});
export type ClipboardEntry = z.infer<typeof ClipboardEntry>;

export const KEY_COMBO =
  /^(?:(?:Control|Ctrl|Shift|Alt|Option|Meta|Cmd|Command|ControlOrMeta)\+)*(?:.|[A-Za-z][A-Za-z0-9]*)$/;

export const ContentRequest = z.discriminatedUnion('type', [
  z.object({ type: z.literal('content.ping') }),
  z.object({
    type: z.literal('dom.snapshot'),
    prefix,
    root: z.optional(text(1, 2000)),
    /** The caller's budget: the walk stops its per-element work once that much is gathered. */
    maxChars: z.optional(int(100, 10_000_000)),
    /** How long the walk may take before it returns what it has (ms). */
    timeMs: z.optional(int(100, 120_000)),
  }),
  z.object({
    type: z.literal('dom.find'),
    prefix,
    text: z.optional(text(1, 500)),
    role: z.optional(text(1, 50)),
    name: z.optional(text(1, 500)),
    limit: z.optional(int(1, 200)),
    timeMs: z.optional(int(100, 120_000)),
  }),
  z.object({
    type: z.literal('dom.query'),
    prefix,
    selector,
    limit: z.optional(int(1, 500)),
    timeMs: z.optional(int(100, 120_000)),
  }),
  z
    .object({
      type: z.literal('dom.describe'),
      prefix,
      ...target,
      /** Also say whether the element matches this selector (an approval's check, without a walk of the page). */
      matches: z.optional(selector),
    })
    .check(hasTarget),
  z.object({
    type: z.literal('dom.text'),
    prefix,
    ...target,
    maxChars: z.optional(int(100, 1_000_000)),
    timeMs: z.optional(int(100, 120_000)),
  }),
  z.object({
    type: z.literal('dom.read'),
    maxChars: z.optional(int(100, 1_000_000)),
    /** The worker can read the article off the page's thread: a page past READER_IN_PAGE_MAX sends its HTML (#24). */
    offPage: z.optional(z.boolean()),
    /** The page's visible text only (the offscreen reader found no article in its HTML). */
    textOnly: z.optional(z.boolean()),
  }),
  z
    .object({
      type: z.literal('dom.click'),
      prefix,
      ...target,
      button: z.optional(z.enum(['left', 'right', 'middle'])),
      clickCount: z.optional(int(1, 3)),
      modifiers: z.optional(z.array(z.enum(['Alt', 'Control', 'Meta', 'Shift'])).check(z.maxLength(4))),
      /** A point: from the target's top-left corner (default its centre), or in the viewport without a target. */
      x: z.optional(coord),
      y: z.optional(coord),
    })
    .check(hasTargetOrPoint),
  z
    .object({
      type: z.literal('dom.type'),
      prefix,
      ...target,
      text: upTo(100_000),
      clear: z.optional(z.boolean()),
      submit: z.optional(z.boolean()),
    })
    .check(hasTarget),
  z.object({
    type: z.literal('dom.fill_form'),
    prefix,
    fields: z
      .array(
        z
          .object({
            ...target,
            value: z.union([upTo(100_000), z.boolean(), z.array(upTo(1000)).check(z.maxLength(100))]),
          })
          .check(hasTarget),
      )
      .check(z.minLength(1), z.maxLength(100)),
    submit: z.optional(z.boolean()),
  }),
  z
    .object({
      type: z.literal('dom.select'),
      prefix,
      ...target,
      values: z.array(upTo(1000)).check(z.minLength(1), z.maxLength(100)),
    })
    .check(hasTarget),
  z.object({ type: z.literal('dom.check'), prefix, ...target, checked: z.optional(z.boolean()) }).check(hasTarget),
  z.object({
    type: z.literal('dom.press'),
    prefix,
    ...target,
    key: text(1, 60).check(z.regex(KEY_COMBO, 'a key or combination such as Enter, Tab, Control+A, Shift+ArrowDown')),
    count: z.optional(int(1, 50)),
    /** What Control+V pastes (Otto's clipboard, src/content/gestures/clipboard.ts). */
    clipboard: z.optional(ClipboardEntry),
  }),
  z
    .object({
      type: z.literal('dom.drag'),
      prefix,
      ...target,
      toRef: z.optional(ref),
      toSelector: z.optional(selector),
      /** The destination by a readable locator (#43: `to_text`), resolved to `toRef` before the drag. */
      toLocator: z.optional(Locator),
      /** By an offset from the grab point (px). */
      dx: z.optional(coord),
      dy: z.optional(coord),
      /** The drop point inside the target, from its top-left corner (default its centre). */
      toX: z.optional(coord),
      toY: z.optional(coord),
      /** Grab the element's bottom-right resize corner instead of its centre. */
      resize: z.optional(z.boolean()),
      method: z.optional(z.enum(['auto', 'html5', 'mouse'])),
      steps: z.optional(int(1, 50)),
    })
    .check(hasTarget),
  z
    .object({
      type: z.literal('dom.select_text'),
      prefix,
      ...target,
      text: z.optional(text(1, 10_000)),
      occurrence: z.optional(int(1, 1000)),
    })
    .check(hasTarget),
  /** The boxes of the refs on screen (tabs.screenshot's overlay). */
  z.object({ type: z.literal('dom.boxes'), prefix, limit: z.optional(int(1, 2000)) }),
  /**
   * The pointer as a person moves it (#43): over an element (a point in it from its top-left, default its centre) or
   * to a viewport point, along a path from where it was; `press` puts the left button down or lets it up there, and
   * `holdMs` stays put before the report. Without a target or point it acts where the pointer already is.
   */
  z
    .object({
      type: z.literal('dom.hover'),
      prefix,
      ...target,
      x: z.optional(coord),
      y: z.optional(coord),
      holdMs: z.optional(int(0, 10_000)),
      press: z.optional(z.enum(['down', 'up'])),
    })
    .check(hasTargetPointOrPress),
  z.object({
    type: z.literal('dom.scroll'),
    prefix,
    ...target,
    to: z.optional(z.enum(['top', 'bottom'])),
    direction: z.optional(z.enum(['up', 'down', 'left', 'right'])),
    pages: z.optional(z.number().check(z.gte(0.1), z.lte(100))),
  }),
  // files.upload (#19): files for a file input or a drop zone, as base64 (up to the file store's 20 MB default).
  z
    .object({
      type: z.literal('dom.upload'),
      prefix,
      ...target,
      files: z
        .array(
          z.object({
            name: text(1, 255),
            mime: upTo(255),
            data: upTo(40_000_000),
            lastModified: z.number(),
          }),
        )
        .check(z.minLength(1), z.maxLength(20)),
      drop: z.optional(z.boolean()),
    })
    .check(hasTarget),
  /** #17: readable locators for an action's target(s), asked just before the action (a click may navigate away). */
  z.object({
    type: z.literal('dom.locator'),
    prefix,
    ...target,
    fields: z.optional(z.array(z.object(target)).check(z.maxLength(100))),
    /** Resolve `locator` to the ref of the one element it names (errors when none or several). */
    resolve: z.optional(z.boolean()),
  }),
  z.object({
    type: z.literal('dom.wait_for'),
    prefix,
    ...target,
    root: z.optional(text(1, 2000)),
    text: z.optional(text(1, 1000)),
    state: z.optional(z.enum(['appear', 'disappear'])),
    timeoutMs: z.optional(int(0, 60_000)),
  }),
]);
export type ContentRequest = z.infer<typeof ContentRequest>;
export type ActionRequest = Extract<
  ContentRequest,
  {
    type:
      | 'dom.click'
      | 'dom.type'
      | 'dom.fill_form'
      | 'dom.select'
      | 'dom.check'
      | 'dom.press'
      | 'dom.hover'
      | 'dom.scroll'
      | 'dom.upload'
      | 'dom.drag'
      | 'dom.select_text';
  }
>;

// ---- replies --------------------------------------------------------------------------------------------------

export const ContentPong = z.object({ url: z.string(), isTop: z.boolean(), title: z.string() });
export type ContentPong = z.infer<typeof ContentPong>;

export const FrameSlot = z.object({ index: z.int(), src: z.string(), name: z.string() });
export type FrameSlot = z.infer<typeof FrameSlot>;

const NODE_KINDS = new Set(['element', 'text', 'frame', 'note']);
const NODE_STRINGS = ['role', 'name', 'ref', 'value', 'href', 'hint', 'text'] as const;

/** What is wrong with an outline tree from a frame, or undefined when it is well formed. Iterative: trees are deep. */
function outlineProblem(tree: unknown): string | undefined {
  if (!Array.isArray(tree)) return 'the outline is not a list';
  const stack: unknown[] = [...tree];
  while (stack.length) {
    const n = stack.pop() as Record<string, unknown> | null;
    if (typeof n !== 'object' || n === null) return 'an outline node is not an object';
    if (n.kind !== undefined && !NODE_KINDS.has(n.kind as string))
      return `an outline node has kind ${JSON.stringify(n.kind)}`;
    for (const k of NODE_STRINGS)
      if (n[k] !== undefined && typeof n[k] !== 'string') return `an outline node's ${k} is not text`;
    if (n.isNew !== undefined && typeof n.isNew !== 'boolean') return "an outline node's isNew is not a boolean";
    if (n.nameInferred !== undefined && typeof n.nameInferred !== 'boolean')
      return "an outline node's nameInferred is not a boolean";
    if (n.states !== undefined && !(Array.isArray(n.states) && n.states.every((s) => typeof s === 'string')))
      return "an outline node's states are not a list of text";
    if (n.frame !== undefined && !Number.isInteger(n.frame)) return "an outline node's frame is not an integer";
    if (n.children === undefined) continue;
    if (!Array.isArray(n.children)) return "an outline node's children are not a list";
    for (const c of n.children) stack.push(c);
  }
  return undefined;
}

/**
 * A frame's outline tree, sent compact (shared/outlineWire.ts: a node's empty or default fields left out) and made
 * whole again once checked. Checked by hand inside the schema: zod (jitless, as MV3 requires) parses a recursive
 * object schema at ~40 µs a node, 300-700 ms for the 8,000 nodes of a big page; this check takes a few ms.
 */
export const OutlineTree = z.pipe(
  z.custom<OutlineWireNode[]>((v) => outlineProblem(v) === undefined, {
    error: (iss) => `invalid outline tree: ${outlineProblem(iss.input) ?? 'malformed'}`,
  }),
  z.transform(unpackOutline),
);

export const SnapshotReply = z.object({
  url: z.string(),
  title: z.string(),
  /** The frame's outline; each child frame is a `frame` node whose `frame` indexes `frames`. */
  tree: OutlineTree,
  refs: z.int(),
  newRefs: z.int(),
  frames: z.array(FrameSlot),
  /** This frame's index in its parent's `window.frames` (-1 for the top frame). */
  frameIndex: z.int(),
  scroll: z.object({ y: z.number(), height: z.number(), viewport: z.number() }),
  ms: z.number(),
  /** What the walk left out (budget, time, the part above the viewport); absent when nothing. */
  notes: z.optional(z.array(z.string())),
  /** Since when the page's click listeners are known (content/listeners.ts); absent from older content scripts. */
  listeners: z.optional(z.enum(['load', 'late', 'none'])),
});
export type SnapshotReply = z.infer<typeof SnapshotReply>;
/** A snapshot reply as a frame sends it: its tree compact (shared/outlineWire.ts). */
export type SnapshotReplyWire = z.input<typeof SnapshotReply>;

export const FindReply = z.object({
  matches: z.array(
    z.object({
      ref: z.optional(z.string()),
      line: z.string(),
      context: z.string(),
      inside: z.optional(z.string()),
      row: z.optional(z.array(z.string())),
      /** A ref for the element that holds a match with no control of its own, and its tag: `kqe14 <p>` (#43). */
      holder: z.optional(z.string()),
    }),
  ),
  total: z.int(),
  /** Set when the search did not cover the whole frame (time or size), saying how much it covered. */
  note: z.optional(z.string()),
  hidden: z.optional(z.object({ count: z.int(), where: z.array(z.string()) })),
});
export type FindReply = z.infer<typeof FindReply>;

/** The element a call names, as the approval card shows it (issue #31); role and name are page text. */
export const DescribeReply = z.object({
  ref: z.optional(upTo(40)),
  role: upTo(60),
  name: upTo(300),
  href: z.optional(upTo(2000)),
  formAction: z.optional(upTo(2000)),
  formMethod: z.optional(upTo(20)),
  submits: z.optional(z.boolean()),
  /** #42: what the effect classifier reads — the element's visible text, its icon's or its own label words. */
  text: z.optional(upTo(200)),
  hints: z.optional(upTo(300)),
  /** #42: the field it writes (type, name, label), a checkbox's state. */
  field: z.optional(upTo(300)),
  checked: z.optional(z.boolean()),
  /** #42: what the action would send or change (the form's or the nearby fields' current values, an item and price). */
  context: z.optional(z.array(upTo(300)).check(z.maxLength(12))),
  /** #42: the title of its dialog, or the heading of its section or form. */
  heading: z.optional(upTo(200)),
  /** Whether the element matches the request's `matches` selector. */
  matches: z.optional(z.boolean()),
});
export type DescribeReply = z.infer<typeof DescribeReply>;

export const QueryReply = z.object({
  matches: z.array(
    z.object({ ref: z.string(), line: z.string(), visible: z.boolean(), hidden: z.optional(z.string()) }),
  ),
  total: z.int(),
  /** The count stopped at the walk's deadline or its element budget: `total` is a lower bound. */
  partial: z.optional(z.literal(true)),
  /** Set when the element budget stopped the count: the last match counted (role and name). */
  countedUpTo: z.optional(upTo(200)),
  /** Set when the search budget stopped a walk holding fewer than `limit` matches: elements searched, the last one. */
  searched: z.optional(z.int()),
  searchedUpTo: z.optional(upTo(200)),
  /** Past `searchedUpTo` the main document (not its shadow roots) was matched by the selector's id. */
  byId: z.optional(z.literal(true)),
});
export type QueryReply = z.infer<typeof QueryReply>;

export const TextReply = z.object({
  text: z.string(),
  truncated: z.boolean(),
  chars: z.int(),
  note: z.optional(z.string()),
});
export type TextReply = z.infer<typeof TextReply>;

export const ReadReply = z.object({
  title: z.string(),
  byline: z.string(),
  siteName: z.string(),
  excerpt: z.string(),
  lang: z.string(),
  markdown: z.string(),
  readerable: z.boolean(),
  truncated: z.boolean(),
  chars: z.int(),
  note: z.optional(z.string()),
});
export type ReadReply = z.infer<typeof ReadReply>;

/** dom.read's other answer (#24): the page's HTML, for the worker to read the article from off the page's thread. */
export const PageHtml = z.object({
  html: z.string(),
  /** The document's URL and base URL (they differ with a `<base href>`): links resolve as the page resolves them. */
  url: z.string(),
  baseUrl: z.string(),
});
export type PageHtml = z.infer<typeof PageHtml>;

export const PageDialog = z.object({
  type: z.enum(['alert', 'confirm', 'prompt', 'beforeunload']),
  message: z.string(),
  answer: z.optional(z.union([z.boolean(), z.string(), z.null()])),
  defaultValue: z.optional(z.string()),
  at: z.number(),
  url: z.string(),
});
export type PageDialog = z.infer<typeof PageDialog>;

export const Changes = z.object({
  navigated: z.optional(z.object({ from: z.string(), to: z.string() })),
  unloading: z.optional(z.boolean()),
  added: z.array(z.string()),
  addedCount: z.int(),
  removedCount: z.int(),
  dialogsOpened: z.array(z.string()),
  dialogsClosed: z.array(z.string()),
  pageDialogs: z.array(PageDialog),
  focus: z.optional(z.string()),
  /** Set when the report was cut short (a very large change): what it left out. */
  note: z.optional(z.string()),
  changed: z.optional(z.array(z.string())),
  shown: z.optional(z.array(z.string())),
  hidden: z.optional(z.array(z.string())),
  observedMs: z.optional(z.number()),
});
export type Changes = z.infer<typeof Changes>;

/** Every action replies with what it did (`summary`), op-specific details, and what changed on the page. */
/** The reply to `dom.locator`. */
export const LocatorReply = z.object({
  /** A readable locator of the target (#17: what a saved snippet replays with). */
  locator: z.optional(Locator),
  /** dom.fill_form: one locator per field, in order (null where none could be made). */
  fieldLocators: z.optional(z.array(z.nullable(Locator))),
  /** The page the action ran on. */
  url: z.string(),
  /** With `resolve`: the ref of the element the locator names. */
  ref: z.optional(z.string()),
});
export type LocatorReply = z.infer<typeof LocatorReply>;

export const ActionReply = z.object({
  action: z.string(),
  target: z.optional(z.string()),
  summary: z.string(),
  details: z.record(z.string(), z.unknown()),
  changes: Changes,
});
export type ActionReply = z.infer<typeof ActionReply>;

export const WaitReply = z.object({
  met: z.boolean(),
  elapsedMs: z.number(),
  ref: z.optional(z.string()),
  already: z.optional(z.boolean()),
  summary: z.string(),
});
export type WaitReply = z.infer<typeof WaitReply>;

/** Refs whose elements show in the viewport, with their boxes in viewport CSS pixels. */
export const BoxesReply = z.object({
  boxes: z.array(z.object({ ref: z.string(), x: z.number(), y: z.number(), w: z.number(), h: z.number() })),
  viewport: z.object({ width: z.number(), height: z.number(), dpr: z.number() }),
  total: z.int(),
});
export type BoxesReply = z.infer<typeof BoxesReply>;

export const ContentReply = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), data: z.unknown() }),
  z.object({ ok: z.literal(false), error: z.string(), code: z.optional(z.string()) }),
]);
export type ContentReply = z.infer<typeof ContentReply>;

/** Error codes a content script may attach to a failed reply. */
export const CONTENT_ERROR = {
  /** dom.read needs reader.iife.ts injected into the frame first. */
  readerMissing: 'reader-missing',
  staleRef: 'stale-ref',
  action: 'action',
} as const;
