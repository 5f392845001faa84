/**
 * `llm.transform` with `schema` (#42 part 2, plan first): a typed answer. The quarantined model (a Chat Completions
 * request with no tools: it can return data, never a tool call) must answer with JSON that matches a small schema —
 * boolean, number, integer, string (optionally one of an `enum`), array of one such, object of such properties —
 * and the program gets the parsed value, checked by zod, or `Error: …` in Otto's words. An enum's values are the
 * program's own strings, so in plan-first mode they reach the planner; a free string does not.
 */
import { z } from '../../../shared/zod.ts';

export interface AnswerSchema {
  type: 'boolean' | 'number' | 'integer' | 'string' | 'array' | 'object';
  enum?: string[] | undefined;
  items?: AnswerSchema | undefined;
  properties?: Record<string, AnswerSchema> | undefined;
}

/** How deep a schema may nest (an answer is a small value, not a document). */
const MAX_DEPTH = 4;

/** The schema of schemas: what `schema=` may say. */
export const answerSchemaSchema: z.ZodType<AnswerSchema> = z.lazy(() =>
  z.strictObject({
    type: z.enum(['boolean', 'number', 'integer', 'string', 'array', 'object']),
    enum: z.array(z.string().min(1).max(200)).min(1).max(50).optional(),
    items: answerSchemaSchema.optional(),
    properties: z.record(z.string().min(1).max(64), answerSchemaSchema).optional(),
  }),
);

function depthOf(s: AnswerSchema): number {
  const inner = [s.items, ...Object.values(s.properties ?? {})].filter((x): x is AnswerSchema => !!x);
  return 1 + Math.max(0, ...inner.map(depthOf));
}

/** A plain-words problem with a schema, or undefined when it is usable. */
export function schemaProblem(s: AnswerSchema): string | undefined {
  if (depthOf(s) > MAX_DEPTH) return `schema nests deeper than ${MAX_DEPTH} levels`;
  if (s.enum && s.type !== 'string') return 'schema: enum is only for type "string"';
  if (s.type === 'array' && !s.items) return 'schema: an array needs items';
  if (s.type === 'object' && !s.properties) return 'schema: an object needs properties';
  for (const inner of [s.items, ...Object.values(s.properties ?? {})]) {
    const p = inner ? schemaProblem(inner) : undefined;
    if (p) return p;
  }
  return undefined;
}

/** The zod check of an answer (built by walking the schema: no code is generated). */
export function answerValidator(s: AnswerSchema): z.ZodType {
  switch (s.type) {
    case 'boolean':
      return z.boolean();
    case 'number':
      return z.number();
    case 'integer':
      return z.number().int();
    case 'string':
      return s.enum ? z.enum(s.enum as [string, ...string[]]) : z.string();
    case 'array':
      return z.array(answerValidator(s.items!));
    case 'object':
      return z.strictObject(Object.fromEntries(Object.entries(s.properties!).map(([k, v]) => [k, answerValidator(v)])));
  }
}

/** What the quarantined model is told about the answer's form (added to the prompt). */
export function answerInstruction(s: AnswerSchema): string {
  return `Answer with a JSON object {"answer": …} whose answer matches this JSON schema: ${JSON.stringify(s)}`;
}

/** The typed value of a model's reply, or `Error: …` in Otto's words (the reply itself is never quoted). */
export function readAnswer(reply: string, s: AnswerSchema): unknown {
  let parsed: unknown;
  try {
    parsed = JSON.parse(reply);
  } catch {
    return 'Error: the model did not answer with JSON';
  }
  const wrapped = z.object({ answer: z.unknown() }).safeParse(parsed);
  if (!wrapped.success) return 'Error: the model’s answer has no "answer" field';
  const checked = answerValidator(s).safeParse(wrapped.data.answer);
  if (!checked.success) return `Error: the model’s answer does not match the schema (expected ${s.type})`;
  return checked.data;
}
