/**
 * "Continue with the model" (#17): a replay stopped at a step; the model gets the snippet, the step that failed, the
 * error and a fresh snapshot, and finishes the task. The steps that ran before the failure travel in the message
 * itself, in an `<otto-replay>` block (one JSON line), so "Save as snippet" on that run can put them first and save
 * the repaired snippet back — with nothing to keep in the worker, which may die in between.
 */
import type { SnippetDefinition, SnippetParam } from '../command/snippetPrograms.ts';
import { z } from '../shared/zod.ts';

const BLOCK = /<otto-replay name="([A-Za-z0-9_-]{1,64})">\n(.+)\n<\/otto-replay>/;

const Carried = z.object({
  params: z.record(
    z.string(),
    z.object({
      default: z.unknown().optional(),
      description: z.string().optional(),
      required: z.boolean().optional(),
      optional: z.boolean().optional(),
    }),
  ),
  values: z.record(z.string(), z.string()),
  done: z.string().max(200_000),
});

export interface ContinuationInput {
  name: string;
  definition: SnippetDefinition;
  /** The parameter values this replay ran with (as typed). */
  values: Record<string, string>;
  /** The expanded program that ran. */
  source: string;
  /** 1-based line of the step that failed (in the body). */
  line: number;
  error: string;
  /** The page as it is now (dom.snapshot's text), or why there is none. */
  snapshot: string;
}

/** The user message that hands a stopped replay to the model. */
export function continuationMessage(c: ContinuationInput): string {
  // Values given for parameters without a default (passwords) are masked: the model never needs them again.
  let source = c.source;
  for (const [k, v] of Object.entries(c.values))
    if (v && c.definition.params?.[k]?.required && c.definition.params[k]?.default === undefined)
      source = source.split(v).join('•••');
  const lines = source.replace(/\n+$/, '').split('\n');
  const done = c.definition.body
    .replace(/\n+$/, '')
    .split('\n')
    .slice(0, c.line - 1)
    .join('\n');
  const numbered = lines.map((l, i) => `${String(i + 1).padStart(3)}${i + 1 === c.line ? ' ✗' : '  '} ${l}`).join('\n');
  // Secrets typed at run time are not written into the block (it is stored with the transcript).
  const values = Object.fromEntries(
    Object.entries(c.values).filter(
      ([k]) => !c.definition.params?.[k]?.required || c.definition.params?.[k]?.default !== undefined,
    ),
  );
  const carried = JSON.stringify({ params: c.definition.params ?? {}, values, done });
  return [
    `Replaying the snippet $${c.name} stopped at step ${c.line}: the page has changed. Finish the task from that step on, on the current page (steps 1–${c.line - 1} already ran; do not repeat them).`,
    '',
    `Task the snippet does: ${c.definition.description ?? c.name}`,
    '',
    'The snippet as it ran (✗ = the step that failed):',
    '```',
    numbered,
    '```',
    '',
    `Error: ${c.error}`,
    '',
    'The page now:',
    c.snapshot,
    '',
    `<otto-replay name="${c.name}">`,
    carried,
    '</otto-replay>',
  ].join('\n');
}

export interface Carry {
  name: string;
  body: string;
  params: Record<string, SnippetParam>;
  /** Parameter values of the replay: the model's steps that reuse one get the parameter, not the literal. */
  values: Record<string, string>;
}

/** The steps a continuation message carries, or undefined when the text is not one. */
export function readContinuation(text: string): Carry | undefined {
  const m = BLOCK.exec(text);
  if (!m) return undefined;
  try {
    const c = Carried.parse(JSON.parse(m[2]!));
    return { name: m[1]!, body: c.done, params: c.params as Record<string, SnippetParam>, values: c.values };
  } catch {
    return undefined;
  }
}
