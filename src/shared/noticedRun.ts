/**
 * The run a schedule's notification click asked to see (#46): the worker leaves it in session storage under this key
 * (it cannot reach a panel that is only now opening), and the panel shows that run's conversation when it finds it.
 */
import { z } from './zod.ts';

export const OPEN_RUN_KEY = 'schedules.openRun';

export const NoticedRun = z.object({
  scheduleId: z.string(),
  runId: z.string(),
  conversationId: z.string().optional(),
});
export type NoticedRun = z.infer<typeof NoticedRun>;
