/**
 * The scrolling tool of the `dom` pack (#45): dom.scroll, an element into view, the page by pages, or to an end.
 */
import { z } from '../../../shared/zod.ts';
import { defineTool } from '../../defineTool.ts';
import { FLOW } from '../../guard/flow.ts';
import type { AnyTool } from '../../Tool.ts';
import type { ActionRequest } from '../../../shared/contentMessages.ts';
import { ref, selector, tabId, target, type DomKit } from './domToolKit.ts';

export function createScrollTools({ act }: DomKit): AnyTool[] {
  const scroll = defineTool({
    pack: 'dom',
    name: 'scroll',
    description:
      'Scroll an element into view (ref or selector), the page by pages in a direction, or to the top or bottom.',
    parameters: z.object({
      ref,
      selector,
      to: z.enum(['top', 'bottom']).optional().describe('Scroll to the top or bottom'),
      direction: z
        .enum(['up', 'down', 'left', 'right'])
        .optional()
        .describe('Direction to scroll by pages (default down)'),
      pages: z.number().min(0.1).max(100).optional().describe('How many viewport heights (default 1)'),
      tab_id: tabId,
    }),
    effect: 'changes',
    flow: FLOW.readsPage,
    examples: ["dom.scroll(ref='e40')", "dom.scroll(direction='down', pages=2)", "dom.scroll(to='bottom')"],
    returns: 'Where the page is scrolled to now (top/bottom reached) and what appeared.',
    async execute(args, ctx) {
      const request: ActionRequest = {
        type: 'dom.scroll',
        ...target(args),
        ...(args.to ? { to: args.to } : {}),
        ...(args.direction ? { direction: args.direction } : {}),
        ...(args.pages !== undefined ? { pages: args.pages } : {}),
      };
      if (!args.ref && !args.selector && !args.to && !args.direction && args.pages === undefined)
        Object.assign(request, { direction: 'down', pages: 1 });
      return act(args, ctx, request);
    },
  });

  return [scroll] as AnyTool[];
}
