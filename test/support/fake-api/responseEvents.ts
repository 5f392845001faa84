/**
 * The events of one streamed response, shaped like the real API's (corpora/openai-sse): the same event types in the
 * same order, the same fields (including `obfuscation` on deltas and `logprobs: []` on text events), ids with the
 * real prefixes and `sequence_number` counting from 0. Compare with `issue-19493-gpt-5.1-tool-call`,
 * `openai-issue-11239.2` (text) and `openai-error.1`.
 */
import { ids } from './ids.ts';
import type { FakeRequestBody, Turn } from './turns.ts';

export type WireEvent = Record<string, unknown> & { type: string };

/** Word-sized pieces, like real token deltas: "Hello", " world", "!". */
export function splitText(text: string): string[] {
  return text.match(/\s*\S+|\s+/g) ?? [];
}

/** Argument JSON in small pieces, as the API streams it. */
export function splitArguments(json: string, size = 6): string[] {
  const out: string[] = [];
  for (let i = 0; i < json.length; i += size) out.push(json.slice(i, i + size));
  return out;
}

function estimateTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

function responseObject(id: string, body: FakeRequestBody, turn: Turn, createdAt: number): Record<string, unknown> {
  return {
    id,
    object: 'response',
    created_at: createdAt,
    status: 'in_progress',
    background: false,
    error: null,
    incomplete_details: null,
    instructions: body.instructions ?? null,
    max_output_tokens: null,
    max_tool_calls: null,
    model: turn.model ?? body.model ?? 'gpt-fake',
    output: [],
    parallel_tool_calls: body.parallel_tool_calls ?? true,
    previous_response_id: body.previous_response_id ?? null,
    prompt_cache_key: null,
    prompt_cache_retention: null,
    reasoning: { effort: body.reasoning?.effort ?? null, summary: body.reasoning?.summary ?? null },
    safety_identifier: null,
    service_tier: 'auto',
    store: body.store ?? true,
    temperature: 1,
    text: { format: { type: 'text' }, verbosity: 'medium' },
    tool_choice: body.tool_choice ?? 'auto',
    tools: body.tools ?? [],
    top_logprobs: 0,
    top_p: 1,
    truncation: 'disabled',
    usage: null,
    user: null,
    metadata: {},
  };
}

export interface BuiltResponse {
  /** The events in order, `sequence_number` set. */
  events: WireEvent[];
  /** The final response object (what a non-streaming request returns). */
  response: Record<string, unknown>;
}

/** All events of the response `turn` describes, for the request `body`. */
export function buildResponseEvents(turn: Turn, body: FakeRequestBody): BuiltResponse {
  const responseId = ids.response();
  const createdAt = Math.floor(Date.now() / 1000);
  const response = responseObject(responseId, body, turn, createdAt);
  const events: WireEvent[] = [];
  const output: Array<Record<string, unknown>> = [];
  const push = (event: WireEvent) => events.push(event);
  const snapshot = (extra: Record<string, unknown>) => ({ ...response, ...extra });

  push({ type: 'response.created', response: snapshot({}) });
  push({ type: 'response.in_progress', response: snapshot({}) });

  let outputText = '';
  let reasoningText = '';

  if (turn.reasoning) {
    const outputIndex = output.length;
    const itemId = ids.reasoning();
    const paragraphs = Array.isArray(turn.reasoning.summary) ? turn.reasoning.summary : [turn.reasoning.summary];
    const wantsEncrypted =
      body.include?.includes('reasoning.encrypted_content') || turn.reasoning.encryptedContent !== undefined;
    const encrypted = turn.reasoning.encryptedContent ?? ids.encrypted();
    const base = { id: itemId, type: 'reasoning', ...(wantsEncrypted ? { encrypted_content: encrypted } : {}) };
    push({ type: 'response.output_item.added', item: { ...base, summary: [] }, output_index: outputIndex });
    paragraphs.forEach((paragraph, summaryIndex) => {
      const where = { item_id: itemId, output_index: outputIndex, summary_index: summaryIndex };
      push({ type: 'response.reasoning_summary_part.added', ...where, part: { type: 'summary_text', text: '' } });
      for (const delta of splitText(paragraph)) {
        push({
          type: 'response.reasoning_summary_text.delta',
          delta,
          item_id: itemId,
          obfuscation: ids.obfuscation(delta),
          output_index: outputIndex,
          summary_index: summaryIndex,
        });
      }
      push({ type: 'response.reasoning_summary_text.done', ...where, text: paragraph });
      push({ type: 'response.reasoning_summary_part.done', ...where, part: { type: 'summary_text', text: paragraph } });
    });
    reasoningText = paragraphs.join('');
    const item = { ...base, summary: paragraphs.map((text) => ({ type: 'summary_text', text })) };
    push({ type: 'response.output_item.done', item, output_index: outputIndex });
    output.push(item);
  }

  if (turn.text !== undefined) {
    const outputIndex = output.length;
    const itemId = ids.message();
    const deltas = Array.isArray(turn.text) ? turn.text : splitText(turn.text);
    const text = deltas.join('');
    const where = { content_index: 0, item_id: itemId, output_index: outputIndex };
    push({
      type: 'response.output_item.added',
      item: { id: itemId, type: 'message', status: 'in_progress', content: [], role: 'assistant' },
      output_index: outputIndex,
    });
    push({
      type: 'response.content_part.added',
      ...where,
      part: { type: 'output_text', annotations: [], logprobs: [], text: '' },
    });
    for (const delta of deltas) {
      push({
        type: 'response.output_text.delta',
        content_index: 0,
        delta,
        item_id: itemId,
        logprobs: [],
        obfuscation: ids.obfuscation(delta),
        output_index: outputIndex,
      });
    }
    push({
      type: 'response.output_text.done',
      content_index: 0,
      item_id: itemId,
      logprobs: [],
      output_index: outputIndex,
      text,
    });
    const part = { type: 'output_text', annotations: [], logprobs: [], text };
    push({ type: 'response.content_part.done', ...where, part });
    const item = { id: itemId, type: 'message', status: 'completed', content: [part], role: 'assistant' };
    push({ type: 'response.output_item.done', item, output_index: outputIndex });
    output.push(item);
    outputText = text;
  }

  for (const call of turn.calls ?? []) {
    const outputIndex = output.length;
    const itemId = ids.functionCall();
    const callId = call.callId ?? ids.callId();
    const args = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments ?? {});
    const fields = { id: itemId, type: 'function_call' };
    push({
      type: 'response.output_item.added',
      item: { ...fields, status: 'in_progress', arguments: '', call_id: callId, name: call.name },
      output_index: outputIndex,
    });
    for (const delta of splitArguments(args)) {
      push({
        type: 'response.function_call_arguments.delta',
        delta,
        item_id: itemId,
        obfuscation: ids.obfuscation(delta),
        output_index: outputIndex,
      });
    }
    // Like the real API: no `name` here, whatever the spec says.
    push({
      type: 'response.function_call_arguments.done',
      arguments: args,
      item_id: itemId,
      output_index: outputIndex,
    });
    const item = { ...fields, status: 'completed', arguments: args, call_id: callId, name: call.name };
    push({ type: 'response.output_item.done', item, output_index: outputIndex });
    output.push(item);
    outputText += args;
  }

  const reasoningTokens = turn.usage?.reasoning_tokens ?? (turn.reasoning ? estimateTokens(reasoningText) : 0);
  const inputTokens =
    turn.usage?.input_tokens ?? estimateTokens(JSON.stringify(body.input ?? '') + (body.instructions ?? ''));
  const outputTokens = turn.usage?.output_tokens ?? estimateTokens(outputText) + reasoningTokens;
  const usage = {
    input_tokens: inputTokens,
    input_tokens_details: { cached_tokens: turn.usage?.cached_tokens ?? 0 },
    output_tokens: outputTokens,
    output_tokens_details: { reasoning_tokens: reasoningTokens },
    total_tokens: inputTokens + outputTokens,
  };

  let final: Record<string, unknown>;
  if (turn.fail) {
    const { code, message, type = code } = turn.fail;
    push(
      turn.fail.flat
        ? { type: 'error', code, message, param: null }
        : { type: 'error', error: { type, code, message, param: null } },
    );
    final = snapshot({ status: 'failed', error: { code, message }, output });
    push({ type: 'response.failed', response: final });
  } else if (turn.incomplete) {
    final = snapshot({ status: 'incomplete', incomplete_details: { reason: turn.incomplete }, output, usage });
    push({ type: 'response.incomplete', response: final });
  } else {
    final = snapshot({ status: 'completed', completed_at: Math.floor(Date.now() / 1000), output, usage });
    push({ type: 'response.completed', response: final });
  }

  events.forEach((event, index) => {
    event.sequence_number = index;
  });
  return { events, response: final };
}

/**
 * The events as a proxy that renames items on the way would send them (recorded from a GitHub Copilot proxy:
 * `corpora/openai-sse/openai-responses/github-copilot-id-rotation.1`): every event naming an item — added, deltas,
 * done, and the final output — carries a fresh id; only `output_index` stays the same.
 */
export function rotateItemIds(events: WireEvent[]): WireEvent[] {
  let n = 0;
  const fresh = (id: unknown) => `${String(id)}_proxy${++n}`;
  return events.map((event) => {
    const copy = structuredClone(event);
    if (typeof copy.item_id === 'string') copy.item_id = fresh(copy.item_id);
    const item = copy.item as Record<string, unknown> | undefined;
    if (item && typeof item.id === 'string') item.id = fresh(item.id);
    const response = copy.response as { output?: Record<string, unknown>[] } | undefined;
    for (const out of response?.output ?? []) if (typeof out.id === 'string') out.id = fresh(out.id);
    return copy;
  });
}
