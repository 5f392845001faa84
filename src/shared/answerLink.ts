/**
 * A link or image URL in one of the model's messages, as the worker judged it (agent/answerLinkCheck.ts, issue #42
 * part 3): plain, or carrying data read from another site — then the panel shows where it goes and asks before it
 * opens it. Kept on the message's transcript record and sent with its `item` event; the panel parses it with
 * `answerLinksSchema` and never judges a link itself (a link it has no verdict for asks).
 */
import { z } from './zod.ts';

export const answerLinkSchema = z.object({
  /** The URL as a browser resolves it (`new URL(x).href`): what the panel's link points to. */
  url: z.string(),
  /** The destination's host (`collector.test`, `127.0.0.1:4001`). */
  to: z.string(),
  /** Whether it may carry data read from another site: then it asks on click. */
  carries: z.boolean(),
  /** The hosts whose data it carries (or may carry). */
  from: z.array(z.string()),
  /** The values read from those sites that it contains, shortened. */
  values: z.array(z.string()),
  /** The question, in plain words, when it carries data. */
  sentence: z.string().optional(),
});

export type AnswerLink = z.infer<typeof answerLinkSchema>;

export const answerLinksSchema = z.array(answerLinkSchema);

/** The stored or sent verdicts, or [] (every link asks) when they are missing or do not parse. */
export function parseAnswerLinks(value: unknown): AnswerLink[] {
  const parsed = answerLinksSchema.safeParse(value ?? []);
  return parsed.success ? parsed.data : [];
}
