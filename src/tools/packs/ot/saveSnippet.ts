/**
 * `ot.save_snippet` (#17): turn a finished run into a snippet in the YAML config, replayable with `$name k=v` and no
 * model. What is kept, dropped and made a parameter: src/replay/fromRun.ts. The panel's "Save as snippet" button
 * runs this same call.
 */
import { z } from '../../../shared/zod.ts';
import { snippetFromRun } from '../../../replay/fromRun.ts';
import type { SnippetParam } from '../../../command/index.ts';
import { otTool } from './common.ts';
import type { ResolvedDeps } from './env.ts';
import { snippetText } from './snippets.ts';

export const SNIPPET_NAME = /^[A-Za-z0-9_][A-Za-z0-9_-]{0,63}$/;

export function saveSnippetTool(d: ResolvedDeps) {
  return otTool({
    name: 'save_snippet',
    description:
      'Save a finished run as a snippet (config `snippets`): its successful steps with readable locators instead of refs, values from the task as parameters (defaults = this run). Replay it with `$name key=value`: no model needed.',
    parameters: z.object({
      name: z.string().regex(SNIPPET_NAME, 'letters, digits, _ and - (up to 64)').describe('Snippet name'),
      conversation: z.string().min(1).max(200).optional().describe('Conversation id; default: the latest'),
      description: z.string().max(500).optional().describe('Default: from the task'),
      replace: z.boolean().default(false).describe('Overwrite a snippet of that name'),
    }),
    effect: 'changes',
    examples: ['ot.save_snippet(name="weekly_form")'],
    returns: 'The saved definition, how to run it, and which calls were dropped and why.',
    async run(args) {
      const store = d.snippetStore;
      if (!store) throw new Error('Saving snippets needs the extension (no conversation store here).');
      if (!args.replace && (await store.exists(args.name)))
        throw new Error(`A snippet '${args.name}' exists already. Choose another name, or pass replace=True.`);
      const { conversationId, items } = await store.transcript(args.conversation);
      const prior = await store.prior(conversationId);
      const built = snippetFromRun(items, {
        ...(args.description ? { description: args.description } : {}),
        ...(prior
          ? { prior: { body: prior.body, params: prior.params as Record<string, SnippetParam>, values: prior.values } }
          : {}),
      });
      if (!built.kept && !prior)
        throw new Error(
          `Nothing to save: the last run in this conversation made no successful step that can be replayed${built.dropped.length ? ` (${built.dropped.length} dropped: ${built.dropped.map((d) => d.reason).join('; ')})` : ''}.`,
        );
      await store.save(args.name, built.definition as unknown as Record<string, unknown>);
      const dropped = built.dropped.length
        ? `\n\nDropped ${built.dropped.length} call${built.dropped.length === 1 ? '' : 's'}:\n${built.dropped.map((d) => `- ${d.call} — ${d.reason}`).join('\n')}`
        : '\n\nDropped: none.';
      return `Saved snippet '${args.name}' (${built.kept} step${built.kept === 1 ? '' : 's'}${prior ? ` after the ${prior.name} steps that worked` : ''}). Run it with $${args.name}; edit it in Settings (YAML, snippets.${args.name}).\n\n${snippetText(args.name, built.definition)}${dropped}`;
    },
  });
}
