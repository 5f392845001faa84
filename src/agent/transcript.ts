/**
 * Transcript items the loop writes, and how a transcript becomes a request's input.
 *
 * Items of type `otto.*` are Otto's local annotations (why a run stopped): shown by the panel, never sent to the
 * model. Everything else is a Responses API item and is replayed verbatim.
 */
import type { ResponseItem } from '../models/events.ts';
import type { ItemRecord } from '../storage/records.ts';

export const ABORTED_OUTPUT = 'Error: aborted by the user';

export interface NoteItem extends ResponseItem {
  type: 'otto.note';
  /** `stopped`: why the run ended early; `incomplete`: the API ended a response early (the answer may be cut). */
  kind: 'stopped' | 'incomplete';
  reason: 'max_turns' | 'aborted' | 'incomplete';
  text: string;
}

export function userMessage(text: string): ResponseItem {
  return { type: 'message', role: 'user', content: [{ type: 'input_text', text }] };
}

/** What the user saw of an assistant message that never completed (abort mid-stream); valid as input. */
export function partialAssistantMessage(text: string): ResponseItem {
  return { type: 'message', role: 'assistant', content: text };
}

export function functionCallOutput(callId: string, output: string | OutputPart[]): ResponseItem {
  return { type: 'function_call_output', call_id: callId, output };
}

/** A content part of a function_call_output whose `output` is an array (Responses API): text or an image. */
export type OutputPart =
  { type: 'input_text'; text: string } | { type: 'input_image'; image_url: string; detail: 'low' | 'high' | 'auto' };

/**
 * A tool result made of content parts instead of text: `{ output_parts: [...] }` (tabs.screenshot returns one, so
 * the model gets the image itself). Other keys, such as the interceptor's `_execution_metadata`, are not sent.
 * Undefined for any other result.
 */
export function outputParts(result: unknown): OutputPart[] | undefined {
  if (!result || typeof result !== 'object' || Array.isArray(result)) return undefined;
  const parts = (result as { output_parts?: unknown }).output_parts;
  if (!Array.isArray(parts) || !parts.length) return undefined;
  const valid = parts.every((p: unknown) => {
    const part = p as Record<string, unknown> | null;
    if (!part || typeof part !== 'object') return false;
    if (part.type === 'input_text') return typeof part.text === 'string';
    return (
      part.type === 'input_image' &&
      typeof part.image_url === 'string' &&
      ['low', 'high', 'auto'].includes(part.detail as string)
    );
  });
  return valid ? (parts as OutputPart[]) : undefined;
}

/** Content parts as text, where only text fits (previews, the panel's tool card): text parts, and `[image]`. */
export function partsText(parts: readonly OutputPart[]): string {
  return parts.map((p) => (p.type === 'input_text' ? p.text : '[image]')).join('\n');
}

export function note(reason: NoteItem['reason'], text: string): NoteItem {
  return { type: 'otto.note', kind: reason === 'incomplete' ? 'incomplete' : 'stopped', reason, text };
}

export function isLocalItem(item: { type: unknown }): boolean {
  return typeof item.type === 'string' && item.type.startsWith('otto.');
}

export interface FunctionCallItem extends ResponseItem {
  type: 'function_call';
  call_id: string;
  name: string;
  arguments: string;
}

export function isFunctionCall(item: Record<string, unknown>): item is FunctionCallItem {
  return item.type === 'function_call' && typeof item.call_id === 'string' && typeof item.name === 'string';
}

export function isFunctionCallOutput(item: Record<string, unknown>): item is ResponseItem & { call_id: string } {
  return item.type === 'function_call_output' && typeof item.call_id === 'string';
}

/** Function calls in the transcript that have no output yet, in order. The API refuses a replay with any. */
export function openCalls(records: readonly ItemRecord[]): FunctionCallItem[] {
  const answered = new Set<string>();
  for (const r of records) if (isFunctionCallOutput(r.item)) answered.add(r.item.call_id);
  const open: FunctionCallItem[] = [];
  const seen = new Set<string>();
  for (const r of records) {
    if (isFunctionCall(r.item) && !answered.has(r.item.call_id) && !seen.has(r.item.call_id)) {
      seen.add(r.item.call_id);
      open.push(r.item);
    }
  }
  return open;
}

/** A tool result as the model sees it: strings as they are, anything else as JSON. */
export function toOutput(result: unknown): string {
  if (typeof result === 'string') return result;
  try {
    return JSON.stringify(result ?? null) ?? String(result);
  } catch {
    return String(result);
  }
}

/** An error as the model sees it, so it can recover: `Error: <message>`. */
export function errorOutput(err: unknown): string {
  const message = err instanceof Error ? err.message : typeof err === 'string' ? err : toOutput(err);
  return `Error: ${message || 'unknown error'}`;
}

export function preview(text: string, max = 2000): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
