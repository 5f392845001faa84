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

export function functionCallOutput(callId: string, output: string): ResponseItem {
  return { type: 'function_call_output', call_id: callId, output };
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

/**
 * The request input. Full replay (the default, `store: false`): every non-local item. With `previous_response_id`
 * and an intact chain: only the items after that response, plus its id.
 */
export function buildInput(
  records: readonly ItemRecord[],
  opts: { usePreviousResponseId: boolean; chain?: { responseId: string; seq: number } },
): { input: ResponseItem[]; previousResponseId?: string } {
  const chain = opts.usePreviousResponseId ? opts.chain : undefined;
  const from = chain ? chain.seq : 0;
  const input = records.filter((r) => r.seq >= from && !isLocalItem(r.item as ResponseItem)).map((r) => r.item as ResponseItem);
  return chain ? { input, previousResponseId: chain.responseId } : { input };
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
