/**
 * `POST /v1/chat/completions` for the fake API: what `llm.transform` calls. Scripted like the Responses turns
 * (first pending turn whose `match` accepts the last user message), with a deterministic default: the reply names
 * the instructions and the input size, and is a JSON object when `response_format` asks for one. Streams
 * `chat.completion.chunk` events ending in `data: [DONE]` when `stream: true`.
 */
import type { ServerResponse } from 'node:http';
import { ids } from './ids.ts';

export interface ChatTurn {
  match?: string | RegExp;
  /** The assistant's reply text. */
  content?: string;
  /** Answer with this HTTP error instead. */
  http?: { status: number; body?: unknown };
  usage?: { prompt_tokens: number; completion_tokens: number };
  times?: number;
}

interface ChatBody {
  model?: string;
  stream?: boolean;
  messages?: { role: string; content: string }[];
  response_format?: { type: string };
}

export class ChatTurnQueue {
  private turns: (ChatTurn & { left: number })[] = [];
  replace(turns: ChatTurn[]): void {
    this.turns = turns.map((t) => ({ ...t, left: t.times ?? 1 }));
  }
  take(userText: string): ChatTurn | undefined {
    const i = this.turns.findIndex(
      (t) => !t.match || (typeof t.match === 'string' ? userText.includes(t.match) : t.match.test(userText)),
    );
    if (i < 0) return undefined;
    const turn = this.turns[i]!;
    if (--turn.left <= 0) this.turns.splice(i, 1);
    return turn;
  }
}

function defaultReply(body: ChatBody, userText: string): string {
  const instructions = userText.split('\n\nInstructions:\n')[1] ?? '';
  const input = userText.split('\n\nInstructions:\n')[0]?.replace(/^Input data:\n/, '') ?? '';
  if (body.response_format?.type === 'json_object') return JSON.stringify({ instructions, input_chars: input.length });
  return `Transformed ${input.length} chars: ${instructions}`;
}

export function answerChat(
  res: ServerResponse,
  body: ChatBody,
  turn: ChatTurn | undefined,
  headers: Record<string, string>,
): number {
  const userText = body.messages?.filter((m) => m.role === 'user').at(-1)?.content ?? '';
  if (turn?.http) {
    res.writeHead(turn.http.status, { ...headers, 'content-type': 'application/json' });
    res.end(
      JSON.stringify(turn.http.body ?? { error: { message: `fake error ${turn.http.status}`, type: 'server_error' } }),
    );
    return turn.http.status;
  }
  const content = turn?.content ?? defaultReply(body, userText);
  const usage = turn?.usage ?? {
    prompt_tokens: Math.ceil(userText.length / 4),
    completion_tokens: Math.ceil(content.length / 4),
  };
  const id = `chatcmpl-${ids.request().slice(4)}`;
  const created = Math.floor(Date.now() / 1000);
  const model = body.model ?? 'gpt-fake';
  if (body.stream) {
    res.writeHead(200, { ...headers, 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
    const chunk = (delta: Record<string, unknown>, finish: string | null, extra: Record<string, unknown> = {}) =>
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`;
    res.write(chunk({ role: 'assistant', content: '' }, null));
    for (const piece of content.match(/.{1,12}/gs) ?? []) res.write(chunk({ content: piece }, null));
    res.write(chunk({}, 'stop', { usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } }));
    res.end('data: [DONE]\n\n');
    return 200;
  }
  res.writeHead(200, { ...headers, 'content-type': 'application/json' });
  res.end(
    JSON.stringify({
      id,
      object: 'chat.completion',
      created,
      model,
      choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop', logprobs: null }],
      usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
    }),
  );
  return 200;
}
