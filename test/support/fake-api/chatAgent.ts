/**
 * The agent's side of the fake `POST /v1/chat/completions`: the same scripted `Turn`s that the Responses route
 * plays, rendered as Chat Completions chunks the way real servers stream them — a first chunk with the role, text
 * and `reasoning_content` in small deltas, each tool call announced with its id and name and its arguments split
 * over several chunks (several calls by `index`), `finish_reason`, usage in a last chunk with no choices when
 * `stream_options.include_usage` asks, then `data: [DONE]`. Faults: `http`, `cutAfter`, `endAfter`,
 * `malformedAt` and `delayMs` count chunks; `fail` sends an error object as a data line; `incomplete` ends with
 * `finish_reason: "length"`.
 */
import { alnum, ids } from './ids.ts';
import { splitArguments, splitText } from './responseEvents.ts';
import type { FakeRequestBody, Turn } from './turns.ts';

export type ChatChunk = Record<string, unknown> | '[DONE]';

/** Whether a chat request comes from the agent (it offers tools or carries tool results), not llm.transform. */
export function isAgentChat(body: FakeRequestBody | undefined): boolean {
  const messages = (body as { messages?: { role?: string }[] } | undefined)?.messages ?? [];
  return Array.isArray(body?.tools) || messages.some((m) => m.role === 'tool');
}

/** The chat body in the shape the fake's Responses helpers read (`input`, flat `tools`), for matching and defaults. */
export function asResponsesView(body: FakeRequestBody | undefined): FakeRequestBody | undefined {
  if (!body) return body;
  const messages = (body as { messages?: { role: string; content?: unknown; tool_call_id?: string }[] }).messages ?? [];
  const input = messages.map((m) =>
    m.role === 'tool'
      ? { type: 'function_call_output', call_id: m.tool_call_id, output: m.content }
      : { type: 'message', role: m.role, content: m.content },
  );
  const tools = (body.tools ?? []).map((t) => {
    const fn = (t as { function?: Record<string, unknown> }).function ?? {};
    return { type: 'function', ...fn };
  });
  return { ...body, input, tools };
}

export function chatFrame(chunk: ChatChunk, malformed: boolean): string {
  if (chunk === '[DONE]') return 'data: [DONE]\n\n';
  const json = JSON.stringify(chunk);
  return `data: ${malformed ? json.slice(0, Math.max(1, Math.floor(json.length / 2))) : json}\n\n`;
}

export function buildChatChunks(turn: Turn, body: FakeRequestBody): ChatChunk[] {
  const id = `chatcmpl-${alnum(29)}`;
  const created = Math.floor(Date.now() / 1000);
  const model = turn.model ?? body.model ?? 'gpt-fake';
  const chunks: ChatChunk[] = [];
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
    chunks.push({
      id,
      object: 'chat.completion.chunk',
      created,
      model,
      system_fingerprint: 'fp_fake',
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    });
  chunk({ role: 'assistant', content: '' });
  let outputText = '';
  if (turn.reasoning) {
    const paragraphs = Array.isArray(turn.reasoning.summary) ? turn.reasoning.summary : [turn.reasoning.summary];
    for (const piece of splitText(paragraphs.join('\n\n'))) chunk({ reasoning_content: piece });
  }
  if (turn.text !== undefined) {
    for (const piece of Array.isArray(turn.text) ? turn.text : splitText(turn.text)) {
      outputText += piece;
      chunk({ content: piece });
    }
  }
  (turn.calls ?? []).forEach((call, index) => {
    const args = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments ?? {});
    const callId = call.callId ?? ids.callId();
    chunk({ tool_calls: [{ index, id: callId, type: 'function', function: { name: call.name, arguments: '' } }] });
    for (const piece of splitArguments(args)) chunk({ tool_calls: [{ index, function: { arguments: piece } }] });
  });
  if (turn.fail) {
    chunks.push({
      error: { message: turn.fail.message, type: turn.fail.type ?? 'server_error', code: turn.fail.code },
    });
    return chunks;
  }
  chunk({}, turn.incomplete ? 'length' : turn.calls?.length ? 'tool_calls' : 'stop');
  const options = (body as { stream_options?: { include_usage?: boolean } }).stream_options;
  if (options?.include_usage) {
    const input = turn.usage?.input_tokens ?? Math.ceil(JSON.stringify(body).length / 4);
    const output = turn.usage?.output_tokens ?? Math.max(1, Math.ceil(outputText.length / 4));
    chunks.push({
      id,
      object: 'chat.completion.chunk',
      created,
      model,
      choices: [],
      usage: {
        prompt_tokens: input,
        completion_tokens: output,
        total_tokens: input + output,
        prompt_tokens_details: { cached_tokens: turn.usage?.cached_tokens ?? 0 },
        completion_tokens_details: { reasoning_tokens: turn.usage?.reasoning_tokens ?? 0 },
      },
    });
  }
  chunks.push('[DONE]');
  return chunks;
}
