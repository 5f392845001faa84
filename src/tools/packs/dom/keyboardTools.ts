/**
 * The keyboard tool of the `dom` pack (#45): dom.press, a key or combination on an element or the focused one;
 * Control+C/X/V go through Otto's own clipboard (ottoClipboard.ts).
 */
import { z } from '../../../shared/zod.ts';
import { defineTool } from '../../defineTool.ts';
import { FLOW } from '../../guard/flow.ts';
import type { AnyTool } from '../../Tool.ts';
import { KEY_COMBO } from '../../../shared/contentMessages.ts';
import { rememberCopy } from './gestures.ts';
import { ottoClipboard, PASTE_KEY } from './ottoClipboard.ts';
import { pressIsDestructive } from './destructive.ts';
import { locatorArgs, locatorParams, ref, selector, tabId, target, type DomKit } from './domToolKit.ts';

export function createKeyboardTools({ page, tab, act }: DomKit): AnyTool[] {
  const press = defineTool({
    pack: 'dom',
    name: 'press',
    description:
      'Press a key or combination (Enter, Escape, Control+A, Shift+Tab…) on an element, or on the focused one. ' +
      'Control+C/X/V use Otto’s own clipboard. ' +
      'Enter that may submit a form asks the user first.',
    parameters: z.object({
      key: z
        .string()
        .min(1)
        .max(60)
        .regex(KEY_COMBO, 'a key or combination such as Enter, Tab, Control+A, Shift+ArrowDown')
        .describe('Key name (KeyboardEvent.key) with optional modifiers joined by +'),
      ref,
      selector,
      ...locatorParams,
      count: z.number().int().min(1).max(50).default(1).describe('Press it this many times'),
      tab_id: tabId,
    }),
    effect: 'changes',
    flow: FLOW.actsOnPage,
    needsApproval: async (args, ctx) =>
      pressIsDestructive(page(), await tab(args, ctx), locatorArgs(args, false), args.key),
    examples: ["dom.press(key='Enter', ref='e5')", "dom.press(key='Escape')", "dom.press(key='ArrowDown', count=3)"],
    returns: 'What the key did (typed, moved focus, submitted, cancelled by the page) and what changed.',
    async execute(args, ctx) {
      const clip = PASTE_KEY.test(args.key) ? ottoClipboard.get() : undefined;
      return act(
        args,
        ctx,
        {
          type: 'dom.press',
          ...target(locatorArgs(args, false)),
          key: args.key,
          ...(args.count > 1 ? { count: args.count } : {}),
          ...(clip ? { clipboard: clip } : {}),
        },
        rememberCopy,
      );
    },
  });

  return [press] as AnyTool[];
}
