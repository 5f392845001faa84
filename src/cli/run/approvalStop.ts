/**
 * The line `otto run` prints when a task stops at an approval (no one is there to answer it). A call outside the
 * task's scope (#42) is not a site to allow in settings: the task's words did not ask for it, so the line says what
 * Otto wanted to do, that a page may have asked for it, and how to widen the task — run it again with words that ask
 * for it. Other approvals (a form, a password, a new site) still point to the panel and the site's settings.
 */
import { z } from '../../shared/zod.ts';

const Approval = z.object({
  outOfScope: z.object({ effects: z.array(z.string()), sentence: z.string().max(2000) }).optional(),
});

/** Words a task can add to ask for each kind ("… and send it"). */
const ASK_WORDS: Record<string, string> = {
  send: 'send it',
  buy: 'buy it',
  delete: 'delete them',
  settings: 'turn it on',
  download: 'download it',
};

export function approvalStopLine(approval: unknown): string {
  const parsed = Approval.safeParse(approval ?? {});
  const outside = parsed.success ? parsed.data.outOfScope : undefined;
  if (!outside) return 'stopped: it needs an approval (run it in the panel, or allow the site in settings)';
  const words = outside.effects.map((k) => ASK_WORDS[k]).filter(Boolean);
  const example = words.length ? ` (e.g. “… and ${words.join(' and ')}”)` : '';
  const sentence = outside.sentence.replace(/^You asked to /, 'the task asked to ');
  return `stopped, nothing was done: ${sentence} To let the task do this, run it again with words that ask for it${example}, or run it in the panel and choose Allow for this task.`;
}
