/**
 * The `schedules:` key of the config (#46): recurring work, keyed by the schedule's name (its id everywhere: the
 * panel, the history, the CLI, the alarm). Each entry runs a saved snippet with arguments (`snippet` + `args`: no
 * model, no key) or a task message (`task`: an agent run), at the times `when` says (src/shared/scheduleWhen.ts).
 *
 * `scope` is what was agreed when the schedule was made, and all an unattended run may do: for a task, the effects
 * and sites its words ask for (src/agent/scopeRules.ts, fixed then and never widened); for a snippet, the sites of
 * its recorded steps. An entry written by hand without `scope` gets it derived the same way when it is armed.
 * `watch.condition` is checked with the watches' grammar (src/shared/watchCondition.ts).
 *
 * An optional key with a default: config version 2 text stays valid, so no version step (docs/decisions/schedules.md).
 */
import { z } from '../shared/zod.ts';
import { EFFECT_KINDS } from '../shared/taskScope.ts';
import { whenProblem } from '../shared/scheduleWhen.ts';
import { parseWatchCondition } from '../shared/watchCondition.ts';

/** Schedule names: what the alarm, the history and `npm run otto -- schedule run <name>` use. */
export const SCHEDULE_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

const When = z
  .string()
  .max(200)
  .superRefine((text, ctx) => {
    const problem = whenProblem(text);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

/** A watch's condition, checked by its own grammar (shared/watchCondition.ts: `below 40`, `changed`, …). */
const WatchText = z
  .string()
  .min(1)
  .max(500)
  .superRefine((text, ctx) => {
    try {
      parseWatchCondition(text);
    } catch (e) {
      ctx.addIssue({ code: 'custom', message: (e as Error).message });
    }
  });

export const ScheduleScope = z.strictObject({
  /** Kinds of effect agreed (`read` always); a call needing another kind pauses the run for the user. */
  effects: z.array(z.enum(EFFECT_KINDS)).default(['read', 'fill']),
  /** Hosts agreed (`shop.example`): a snippet's recorded sites, or those a task's words name. */
  sites: z.array(z.string().min(1).max(253)).max(50).default([]),
});
export type ScheduleScope = z.infer<typeof ScheduleScope>;

export const ScheduleEntry = z
  .strictObject({
    when: When,
    /** A snippet in `snippets:` to run as `$name k=v` does. */
    snippet: z.string().min(1).max(100).optional(),
    args: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).default({}),
    /** A task message to run through the agent, unattended. */
    task: z.string().min(1).max(10_000).optional(),
    /** The page the run starts on (a task's first tab; a snippet's steps open their own pages). */
    url: z.string().url().max(2000).optional(),
    watch: z.strictObject({ condition: WatchText }).optional(),
    paused: z.boolean().default(false),
    scope: ScheduleScope.optional(),
    /** Notify when a run ends `done` (failures and waits always notify). */
    notify: z.boolean().default(true),
  })
  .superRefine((entry, ctx) => {
    if (!entry.snippet === !entry.task)
      ctx.addIssue({ code: 'custom', message: 'a schedule runs either `snippet` or `task`, exactly one of them' });
  });
export type ScheduleEntry = z.infer<typeof ScheduleEntry>;

export const SchedulesConfig = z
  .record(z.string(), ScheduleEntry)
  .superRefine((map, ctx) => {
    for (const name of Object.keys(map))
      if (!SCHEDULE_NAME.test(name))
        ctx.addIssue({
          code: 'custom',
          path: [name],
          message: `"${name}": schedule names are letters, digits, - and _ (up to 64, no spaces)`,
        });
  })
  .default({});
