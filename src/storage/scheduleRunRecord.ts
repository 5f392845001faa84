/**
 * One run of a schedule (#46), as its history keeps it: validated with zod when written and when read, so a record
 * from another version or a damaged one is dropped, never shown half-read.
 */
import { z } from '../shared/zod.ts';

/** `running`: started, not ended yet (shown as going; a worker that died mid-run leaves it, then `failed`). */
export const SCHEDULE_OUTCOMES = ['running', 'done', 'failed', 'paused-waiting', 'skipped'] as const;
export type ScheduleOutcome = (typeof SCHEDULE_OUTCOMES)[number];

export const ScheduleRunRecord = z.object({
  /** `<schedule>:<started>`: unique per run, sorts by schedule then time. */
  id: z.string().min(1).max(200),
  scheduleId: z.string().min(1).max(100),
  /** The time the run was due (epoch ms); `started` may be later (a late run, a busy worker). */
  due: z.number(),
  started: z.number(),
  /** Unset while the run is going or waiting for the user. */
  finished: z.number().optional(),
  durationMs: z.number().min(0).optional(),
  outcome: z.enum(SCHEDULE_OUTCOMES),
  /** Ran after Chrome was closed at its time (or the worker could not run it then): it runs once, marked late. */
  late: z.boolean().default(false),
  /** What fired it: its time, the panel's "run now", or a test hook. */
  trigger: z.enum(['alarm', 'missed', 'run-now']).default('alarm'),
  /** The run's output (a snippet's last value, a task's answer), cut to OUTPUT_MAX_CHARS. */
  output: z.string().max(20_000).default(''),
  /** For `failed`, `skipped` and `paused-waiting`: which step and why, in plain words. */
  failedStep: z.string().max(2000).optional(),
  reason: z.string().max(4000).optional(),
  /** The conversation the run wrote to (open it in the panel). */
  conversationId: z.string().max(100).optional(),
  /** Model use: 0 for snippets. */
  tokens: z.number().int().min(0).default(0),
  costUsd: z.number().min(0).default(0),
  /** Watches (their own files define how these are read and compared). */
  value: z.string().max(2000).optional(),
  /** The value the last run kept, compared with this one. */
  previous: z.string().max(2000).optional(),
  triggered: z.boolean().optional(),
  /** A watch's one-line verdict for this value against the last one ("39.99 is below 40, was 42"). */
  change: z.string().max(500).optional(),
});
export type ScheduleRunRecord = z.infer<typeof ScheduleRunRecord>;
export type ScheduleRunInput = z.input<typeof ScheduleRunRecord>;

export const OUTPUT_MAX_CHARS = 20_000;
