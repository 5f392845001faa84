/**
 * The dialog tool of the `dom` pack (#45): dom.dialogs, the log of the alert/confirm/prompt dialogs Otto's actions
 * met, and arming an OK answer to one question in the next action on the tab.
 */
import { z } from '../../../shared/zod.ts';
import { defineTool } from '../../defineTool.ts';
import { FLOW } from '../../guard/flow.ts';
import type { AnyTool } from '../../Tool.ts';
import { formatDialogs } from './formatReplies.ts';
import { tabId, type DomKit } from './domToolKit.ts';

export function createDialogTools({ page, tab }: DomKit): AnyTool[] {
  const dialogs = defineTool({
    pack: 'dom',
    name: 'dialogs',
    description:
      'The page’s alert/confirm/prompt dialogs during Otto’s actions: answered at once so they never block — confirm and prompt with Cancel, alert dismissed — logged, and reported with the action. ' +
      'Read the log, or answer OK to one question in the next action on this tab: accept names its exact text (the user is asked first).',
    parameters: z.object({
      accept: z
        .string()
        .min(1)
        .max(2000)
        .optional()
        .describe('The exact question to answer OK (confirm) or with text (prompt) in the next action on this tab'),
      text: z.string().max(10_000).optional().describe('The answer to that prompt() (default: the page’s suggestion)'),
      clear: z.boolean().default(false).describe('Empty the log after reading it'),
      tab_id: tabId,
    }),
    effect: 'changes',
    flow: FLOW.actsOnPage,
    needsApproval: (args) => args.accept !== undefined,
    examples: [
      'dom.dialogs()',
      "dom.dialogs(accept='Delete this item?')",
      "dom.dialogs(accept='Your name?', text='Ada')",
    ],
    returns:
      'What is armed for the next action, and the dialogs the page showed (messages inside an <external-content-…> boundary).',
    async execute(args, ctx) {
      if (args.text !== undefined && args.accept === undefined)
        throw new Error('dom.dialogs: text answers the question named by accept; give accept too.');
      const r = await page().dialogs(await tab(args, ctx), {
        ...(args.accept !== undefined
          ? { accept: { message: args.accept, ...(args.text !== undefined ? { text: args.text } : {}) } }
          : {}),
        ...(args.clear ? { clear: true } : {}),
      });
      return formatDialogs(r, args.accept !== undefined);
    },
  });

  return [dialogs] as AnyTool[];
}
