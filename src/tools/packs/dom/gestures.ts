/**
 * The pointer tools of the `dom` pack (issues 21, 43, 45): dom.hover (a pointer path, a hold, a press or release),
 * dom.drag (drag and drop, sliders, resize grips) and dom.select_text, plus the parameters other tools gain for
 * gestures (dom.click's point, Otto's clipboard behind dom.press). The work happens in the content script (src/content/gestures/); these only shape the request.
 */
import { z } from '../../../shared/zod.ts';
import { REF_RE, type ClipboardEntry } from '../../../shared/contentMessages.ts';
import type { ActionResult } from '../../../page/actions.ts';
import { defineTool } from '../../defineTool.ts';
import { FLOW } from '../../guard/flow.ts';
import type { AnyTool } from '../../Tool.ts';
import { ottoClipboard } from './ottoClipboard.ts';
import {
  locatorArgs,
  locatorParams,
  needTarget,
  ref,
  selector,
  tabId,
  target,
  textLocator,
  type DomKit,
} from './domToolKit.ts';

const px = z.number().min(-10_000).max(10_000);

/** dom.click's point (bounds are checked in the page, against the element's box or the viewport). */
export const pointArgs = {
  x: z.number().optional().describe('Point x (px)'),
  y: z.number().optional().describe('Point y (px)'),
};

/** Keeps what a Control+C / Control+X copied (its details carry it) on Otto's clipboard. */
export function rememberCopy(result: ActionResult): void {
  const copied = result.details.copied as ClipboardEntry | undefined;
  if (copied && typeof copied.text === 'string' && typeof copied.origin === 'string') ottoClipboard.set(copied);
}

const frameOf = (ref: string): string => /^f\d+/.exec(ref)?.[0] ?? '';

/** dom.hover: the pointer moved like a mouse, held still, pressed or released (#43). */
export function createHoverTools({ act }: DomKit): AnyTool[] {
  const hover = defineTool({
    pack: 'dom',
    name: 'hover',
    description:
      'Move the pointer like a mouse (a path from where it was) over an element or to x/y (from its top-left, or in the viewport); hold_ms: stay still. ' +
      'press=down/up: left button down/up there (moves between keep it held: drag via points, long press; no click). ' +
      'Reports changes incl. attributes (fill, class, aria-*). CSS-only :hover menus do not open: click instead.',
    parameters: z.object({
      ref,
      selector,
      ...locatorParams,
      text: textLocator,
      ...pointArgs,
      hold_ms: z.number().int().min(0).max(10_000).optional(),
      press: z.enum(['down', 'up']).optional(),
      tab_id: tabId,
    }),
    effect: 'changes',
    // A point, a press and a release tell the page what the model chose, as a click or a drag does (#43).
    flow: FLOW.actsOnPage,
    examples: [
      "dom.hover(ref='e10')",
      'dom.hover(x=320, y=180, hold_ms=1500)',
      "dom.hover(ref='e4', press='down'); dom.hover(x=400, y=200); dom.hover(x=480, y=200, press='up')",
    ],
    returns:
      'What was hovered, pressed or released and what changed (page text inside an <external-content-…> boundary).',
    async execute(args, ctx) {
      const t = locatorArgs(args, true);
      const point = args.x !== undefined || args.y !== undefined;
      const hasTarget = !!(t.ref || t.selector || t.locator);
      if (point && !hasTarget && (args.x === undefined || args.y === undefined))
        throw new Error('dom.hover at a viewport point needs both x and y (or a ref/selector to aim inside).');
      if (!point && !hasTarget && !args.press && args.hold_ms === undefined) needTarget(t, 'dom.hover');
      return act(args, ctx, {
        type: 'dom.hover',
        ...target(t),
        ...(args.x !== undefined ? { x: args.x } : {}),
        ...(args.y !== undefined ? { y: args.y } : {}),
        ...(args.hold_ms ? { holdMs: args.hold_ms } : {}),
        ...(args.press ? { press: args.press } : {}),
      });
    },
  });

  return [hover] as AnyTool[];
}

export function createGestureTools(d: DomKit): AnyTool[] {
  const toRef = z.string().regex(REF_RE, 'a ref looks like e12 (or f3e12 inside a frame)').optional();

  const drag = defineTool({
    pack: 'dom',
    name: 'drag',
    description:
      'Drag an element like a person: onto another element (to_ref, or to_x/to_y inside it) or by an offset (dx/dy px). ' +
      'An element without a ref is named by its visible text: text (what to drag), to_text (where to drop), each matching exactly one element. ' +
      'Reorders lists, moves cards between columns, moves slider thumbs and map markers; resize=True grabs the bottom-right resize corner. ' +
      'Uses HTML5 drag and drop where the page does (draggable elements), else a mouse drag with intermediate moves. Reports what moved: the order before and after, the container it ended in.',
    parameters: z.object({
      ref,
      selector,
      text: textLocator.describe('What to drag, by its visible text (one element), when it has no ref'),
      to_ref: toRef.describe('Drop onto this element (ref)'),
      to_selector: z.string().min(1).max(2000).optional().describe('Drop onto this element (CSS), when no to_ref'),
      to_text: z.string().min(1).max(500).optional().describe('Drop onto the one element showing this text'),
      to_x: px.optional().describe('Drop point inside the destination: px from its left edge (default its centre)'),
      to_y: px.optional().describe('Drop point inside the destination: px from its top edge (default its centre)'),
      dx: px.optional().describe('Drag by this many px to the right (negative: left), instead of onto an element'),
      dy: px.optional().describe('Drag by this many px down (negative: up)'),
      resize: z
        .boolean()
        .default(false)
        .describe('Grab the bottom-right resize corner (textarea, resizable panel) and drag it by dx/dy'),
      method: z
        .enum(['auto', 'html5', 'mouse'])
        .default('auto')
        .describe('auto: as the browser would; html5 or mouse force one kind of events'),
      tab_id: tabId,
    }),
    effect: 'changes',
    flow: FLOW.actsOnPage,
    examples: [
      "dom.drag(ref='e4', to_ref='e9')",
      "dom.drag(text='Wash', to_text='Fold')",
      "dom.drag(ref='e12', dx=80, dy=0)",
      "dom.drag(ref='e5', resize=True, dx=120, dy=60)",
    ],
    returns: 'How it dragged, where it dropped, what moved (list order before/after) and what changed on the page.',
    async execute(args, ctx) {
      const from = locatorArgs(args, true);
      if (!from.ref && !from.selector && !from.locator)
        throw new Error(
          'dom.drag needs the element to drag: ref (from dom.snapshot or dom.find), its text, or selector.',
        );
      const tos = [args.to_ref, args.to_selector, args.to_text].filter((v) => v !== undefined).length;
      const hasOffset = args.dx !== undefined || args.dy !== undefined;
      if (tos > 1) throw new Error('dom.drag: give one destination: to_ref, to_text or to_selector.');
      if (tos && hasOffset)
        throw new Error('dom.drag: give a destination element (to_ref/to_text) or an offset (dx/dy), not both.');
      if (!tos && !hasOffset)
        throw new Error(
          'dom.drag needs where to: to_ref (or to_text, to_selector) for another element, or dx/dy for an offset in pixels.',
        );
      if (args.resize && !hasOffset)
        throw new Error('dom.drag(resize=True) drags the corner by dx/dy: give dx and/or dy.');
      // Both ends of a drag live in one frame: a drag cannot cross a frame boundary (the browser's cannot either).
      if (args.to_ref && args.ref && frameOf(args.to_ref) !== frameOf(args.ref))
        throw new Error(
          `dom.drag: ${args.ref} and ${args.to_ref} are in different frames; a drag stays inside one frame.`,
        );
      const selectorSource = !args.ref && args.to_ref && frameOf(args.to_ref);
      if (selectorSource)
        throw new Error('dom.drag: with a to_ref inside a frame, give the dragged element by ref too.');
      return d.act(args, ctx, {
        type: 'dom.drag',
        ...target(from),
        ...(args.to_ref
          ? { toRef: args.to_ref }
          : args.to_selector
            ? { toSelector: args.to_selector }
            : args.to_text
              ? { toLocator: { text: args.to_text } }
              : {}),
        ...(args.dx !== undefined ? { dx: args.dx } : {}),
        ...(args.dy !== undefined ? { dy: args.dy } : {}),
        ...(args.to_x !== undefined ? { toX: args.to_x } : {}),
        ...(args.to_y !== undefined ? { toY: args.to_y } : {}),
        ...(args.resize ? { resize: true } : {}),
        ...(args.method !== 'auto' ? { method: args.method } : {}),
      });
    },
  });

  const selectText = defineTool({
    pack: 'dom',
    name: 'select_text',
    description:
      'Select text as a mouse selection would (the page’s selectionchange/mouseup handlers run): a phrase inside an element (text, the n-th occurrence), or all of its text. ' +
      'Without ref or selector, text alone names the one element that shows it (as a text locator) and selects it there. ' +
      'Then press Control+C to copy it, or use the page’s own buttons (Bold, Highlight, Comment) on it. Reports the selected text.',
    parameters: z.object({
      ref,
      selector,
      text: z
        .string()
        .min(1)
        .max(10_000)
        .optional()
        .describe('The text to select inside the element; default all of it. Alone: finds its element too'),
      occurrence: z.number().int().min(1).max(1000).default(1).describe('Which occurrence of text (1 = first)'),
      tab_id: tabId,
    }),
    effect: 'changes',
    flow: FLOW.actsOnPage,
    examples: [
      "dom.select_text(ref='e8', text='quick brown')",
      "dom.select_text(text='quick brown')",
      "dom.select_text(ref='e8', text='the', occurrence=2)",
      "dom.select_text(ref='e3')",
    ],
    returns: 'The text now selected (inside an <external-content-…> boundary) and what changed on the page.',
    async execute(args, ctx) {
      if (!args.ref && !args.selector && args.text === undefined)
        throw new Error('dom.select_text needs the text to select, or the element holding it: ref or selector.');
      // Text alone is a locator as well (#43): the one element whose own text holds it, by Playwright's rules.
      const at = args.ref
        ? { ref: args.ref }
        : args.selector
          ? { selector: args.selector }
          : { locator: { text: args.text! } };
      return d.act(args, ctx, {
        type: 'dom.select_text',
        ...at,
        ...(args.text !== undefined ? { text: args.text } : {}),
        ...(args.occurrence > 1 ? { occurrence: args.occurrence } : {}),
      });
    },
  });

  return [drag, selectText] as AnyTool[];
}
