/**
 * Worker → content script requests, sent with `chrome.tabs.sendMessage(tabId, msg, { frameId })`, and the replies.
 * The content script validates each request on receipt; the worker validates each reply.
 *
 * Page operations (`dom.*`) run in one frame. Refs carry their frame (`e12` top frame, `f3e12` frame 3), so the
 * worker routes a ref to its frame; `prefix` tells a frame which prefix its new refs get.
 */
import { z } from './zod.ts';

export const REF_RE = /^(?:f\d+)?e\d+$/;
const ref = z.string().regex(REF_RE, 'a ref looks like e12 (or f3e12 inside a frame)');
const selector = z.string().min(1).max(2000);
const prefix = z
  .string()
  .regex(/^(?:f\d+)?$/)
  .optional();
const target = { ref: ref.optional(), selector: selector.optional() };
const hasTarget = (t: { ref?: string; selector?: string }): boolean => !!(t.ref || t.selector);
const targetMessage = { message: 'give ref or selector' };

export const KEY_COMBO = /^(?:(?:Control|Ctrl|Shift|Alt|Option|Meta|Cmd|Command|ControlOrMeta)\+)*(?:.|[A-Za-z][A-Za-z0-9]*)$/;

export const ContentRequest = z.discriminatedUnion('type', [
  z.object({ type: z.literal('content.ping') }),
  z.object({ type: z.literal('dom.snapshot'), prefix, root: z.string().min(1).max(2000).optional() }),
  z.object({
    type: z.literal('dom.find'),
    prefix,
    text: z.string().min(1).max(500).optional(),
    role: z.string().min(1).max(50).optional(),
    name: z.string().min(1).max(500).optional(),
    limit: z.number().int().min(1).max(200).optional(),
  }),
  z.object({ type: z.literal('dom.query'), prefix, selector, limit: z.number().int().min(1).max(500).optional() }),
  z.object({ type: z.literal('dom.text'), prefix, ...target, maxChars: z.number().int().min(100).max(1_000_000).optional() }),
  z.object({ type: z.literal('dom.read'), maxChars: z.number().int().min(100).max(1_000_000).optional() }),
  z
    .object({
      type: z.literal('dom.click'),
      prefix,
      ...target,
      button: z.enum(['left', 'right', 'middle']).optional(),
      clickCount: z.number().int().min(1).max(3).optional(),
      modifiers: z.array(z.enum(['Alt', 'Control', 'Meta', 'Shift'])).max(4).optional(),
    })
    .refine(hasTarget, targetMessage),
  z
    .object({
      type: z.literal('dom.type'),
      prefix,
      ...target,
      text: z.string().max(100_000),
      clear: z.boolean().optional(),
      submit: z.boolean().optional(),
    })
    .refine(hasTarget, targetMessage),
  z.object({
    type: z.literal('dom.fill_form'),
    prefix,
    fields: z
      .array(
        z
          .object({ ...target, value: z.union([z.string().max(100_000), z.boolean(), z.array(z.string().max(1000)).max(100)]) })
          .refine(hasTarget, targetMessage),
      )
      .min(1)
      .max(100),
    submit: z.boolean().optional(),
  }),
  z.object({ type: z.literal('dom.select'), prefix, ...target, values: z.array(z.string().max(1000)).min(1).max(100) }).refine(hasTarget, targetMessage),
  z.object({ type: z.literal('dom.check'), prefix, ...target, checked: z.boolean().optional() }).refine(hasTarget, targetMessage),
  z.object({
    type: z.literal('dom.press'),
    prefix,
    ...target,
    key: z.string().min(1).max(60).regex(KEY_COMBO, 'a key or combination such as Enter, Tab, Control+A, Shift+ArrowDown'),
    count: z.number().int().min(1).max(50).optional(),
  }),
  z.object({ type: z.literal('dom.hover'), prefix, ...target }).refine(hasTarget, targetMessage),
  z.object({
    type: z.literal('dom.scroll'),
    prefix,
    ...target,
    to: z.enum(['top', 'bottom']).optional(),
    direction: z.enum(['up', 'down', 'left', 'right']).optional(),
    pages: z.number().min(0.1).max(100).optional(),
  }),
  z.object({
    type: z.literal('dom.wait_for'),
    prefix,
    ...target,
    text: z.string().min(1).max(1000).optional(),
    state: z.enum(['appear', 'disappear']).optional(),
    timeoutMs: z.number().int().min(0).max(60_000).optional(),
  }),
  z.object({
    type: z.literal('dom.dialogs'),
    policy: z.object({ confirm: z.boolean().optional(), prompt: z.string().max(10_000).nullable().optional() }).optional(),
    clear: z.boolean().optional(),
  }),
]);
export type ContentRequest = z.infer<typeof ContentRequest>;
export type ContentRequestType = ContentRequest['type'];
export type ActionRequest = Extract<
  ContentRequest,
  { type: 'dom.click' | 'dom.type' | 'dom.fill_form' | 'dom.select' | 'dom.check' | 'dom.press' | 'dom.hover' | 'dom.scroll' }
>;

// ---- replies --------------------------------------------------------------------------------------------------

export const ContentPong = z.object({ url: z.string(), isTop: z.boolean(), title: z.string() });
export type ContentPong = z.infer<typeof ContentPong>;

export const FrameSlot = z.object({ index: z.number().int(), src: z.string(), name: z.string() });
export type FrameSlot = z.infer<typeof FrameSlot>;

export const SnapshotReply = z.object({
  url: z.string(),
  title: z.string(),
  /** The outline; child frames appear as `- iframe "title" {{frame N}}` lines (N indexes `frames`). */
  text: z.string(),
  refs: z.number().int(),
  newRefs: z.number().int(),
  lines: z.number().int(),
  frames: z.array(FrameSlot),
  /** This frame's index in its parent's `window.frames` (-1 for the top frame). */
  frameIndex: z.number().int(),
  scroll: z.object({ y: z.number(), height: z.number(), viewport: z.number() }),
  ms: z.number(),
});
export type SnapshotReply = z.infer<typeof SnapshotReply>;

export const FindReply = z.object({
  matches: z.array(z.object({ ref: z.string().optional(), line: z.string(), context: z.string(), near: z.string().optional() })),
  total: z.number().int(),
});
export type FindReply = z.infer<typeof FindReply>;

export const QueryReply = z.object({
  matches: z.array(z.object({ ref: z.string(), line: z.string(), visible: z.boolean(), hidden: z.string().optional() })),
  total: z.number().int(),
});
export type QueryReply = z.infer<typeof QueryReply>;

export const TextReply = z.object({ text: z.string(), truncated: z.boolean(), chars: z.number().int() });
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
  chars: z.number().int(),
});
export type ReadReply = z.infer<typeof ReadReply>;

export const PageDialog = z.object({
  type: z.enum(['alert', 'confirm', 'prompt', 'beforeunload']),
  message: z.string(),
  answer: z.union([z.boolean(), z.string(), z.null()]).optional(),
  defaultValue: z.string().optional(),
  at: z.number(),
  url: z.string(),
});
export type PageDialog = z.infer<typeof PageDialog>;

export const Changes = z.object({
  navigated: z.object({ from: z.string(), to: z.string() }).optional(),
  unloading: z.boolean().optional(),
  added: z.array(z.string()),
  addedCount: z.number().int(),
  removedCount: z.number().int(),
  dialogsOpened: z.array(z.string()),
  dialogsClosed: z.array(z.string()),
  pageDialogs: z.array(PageDialog),
  focus: z.string().optional(),
});
export type Changes = z.infer<typeof Changes>;

/** Every action replies with what it did (`summary`), op-specific details, and what changed on the page. */
export const ActionReply = z.object({
  action: z.string(),
  target: z.string().optional(),
  summary: z.string(),
  details: z.record(z.string(), z.unknown()),
  changes: Changes,
});
export type ActionReply = z.infer<typeof ActionReply>;

export const WaitReply = z.object({ met: z.boolean(), elapsedMs: z.number(), ref: z.string().optional(), summary: z.string() });
export type WaitReply = z.infer<typeof WaitReply>;

export const DialogsReply = z.object({
  ready: z.boolean(),
  policy: z.object({ confirm: z.boolean(), prompt: z.string().nullable() }),
  log: z.array(PageDialog),
  total: z.number().int(),
});
export type DialogsReply = z.infer<typeof DialogsReply>;

export const ContentReply = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), data: z.unknown() }),
  z.object({ ok: z.literal(false), error: z.string(), code: z.string().optional() }),
]);
export type ContentReply = z.infer<typeof ContentReply>;

/** Error codes a content script may attach to a failed reply. */
export const CONTENT_ERROR = {
  /** dom.read needs reader.iife.ts injected into the frame first. */
  readerMissing: 'reader-missing',
  staleRef: 'stale-ref',
  action: 'action',
} as const;
