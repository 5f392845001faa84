/**
 * The waiting tool of the `dom` pack (#45): dom.wait_for, until text, a ref or a selector appears or disappears; a
 * condition not met in time is an error.
 */
import { z } from '../../../shared/zod.ts';
import { defineTool } from '../../defineTool.ts';
import { FLOW } from '../../guard/flow.ts';
import type { AnyTool } from '../../Tool.ts';
import { formatWait } from './formatReplies.ts';
import { ref, selector, tabId, target, type DomKit } from './domToolKit.ts';

export function createWaitTools({ page, tab }: DomKit): AnyTool[] {
  const waitFor = defineTool({
    pack: 'dom',
    name: 'wait_for',
    description:
      'Wait until text, a ref or a selector appears (or disappears); says if it was already there and what matched.',
    parameters: z.object({
      text: z.string().min(1).max(1000).optional().describe('Visible text to wait for'),
      ref,
      selector,
      root: z.string().min(1).max(2000).optional().describe('Only inside this element: a ref or CSS selector'),
      state: z.enum(['appear', 'disappear']).default('appear'),
      timeout_ms: z.number().int().min(0).max(60_000).default(5000).describe('Give up after this long'),
      tab_id: tabId,
    }),
    effect: 'reads',
    flow: FLOW.readsPage,
    examples: [
      "dom.wait_for(text='Order confirmed')",
      "dom.wait_for(selector='.spinner', state='disappear', timeout_ms=15000)",
    ],
    returns: 'How long it took (and the ref of what appeared); an error when the condition was not met in time.',
    async execute(args, ctx) {
      if (!args.text && !args.ref && !args.selector) throw new Error('dom.wait_for needs text, ref or selector.');
      const r = await page().waitFor(await tab(args, ctx), {
        state: args.state,
        timeoutMs: args.timeout_ms,
        ...(args.text ? { text: args.text } : {}),
        ...(args.root ? { root: args.root } : {}),
        ...target(args),
      });
      const out = formatWait(r, args.state);
      if (!r.met) throw new Error(out);
      return out;
    },
  });

  return [waitFor] as AnyTool[];
}
