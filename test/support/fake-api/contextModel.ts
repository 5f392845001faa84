/**
 * The fake's model of a context window, a prompt cache and server-side compaction (#23), switched on per test with
 * `api.setContext({...})`:
 *
 * - `window` (tokens): a request whose prompt counts more answers 400 `context_length_exceeded`, as OpenAI does.
 * - prompt cache (always on with `setContext`): `usage.input_tokens_details.cached_tokens` is the longest prefix the
 *   request shares with an earlier one, in the real API's units (nothing under 1,024 tokens, then steps of 128).
 * - `compaction: true`: `POST /v1/responses/compact` answers with the user's messages and one `compaction` item;
 *   without it that path is a 404, so a client must detect it rather than assume it.
 *
 * Tokens are counted as characters ÷ 4 of the prompt as JSON (instructions, tools, input), images 800 each.
 */
import type { FakeRequestBody } from './turns.ts';

export interface ContextOptions {
  window?: number;
  compaction?: boolean;
}

const IMAGE_TOKENS = 800;

/** The prompt as the fake counts it. */
export function promptText(body: FakeRequestBody): { text: string; images: number } {
  let images = 0;
  const text = JSON.stringify([body.instructions ?? '', body.tools ?? [], body.input ?? ''], (key, value: unknown) => {
    if (key === 'image_url' && typeof value === 'string') {
      images++;
      return '';
    }
    return value;
  });
  return { text, images };
}

export function promptTokens(body: FakeRequestBody): number {
  const { text, images } = promptText(body);
  return Math.ceil(text.length / 4) + images * IMAGE_TOKENS;
}

export function contextLengthError(tokens: number, window: number): { error: Record<string, unknown> } {
  return {
    error: {
      message: `This model's maximum context length is ${window} tokens. However, your messages resulted in ${tokens} tokens. Please reduce the length of the messages.`,
      type: 'invalid_request_error',
      param: 'input',
      code: 'context_length_exceeded',
    },
  };
}

/** Cached prefix tokens, as the real cache reports them: a shared prefix of 1,024+ tokens, counted in 128s. */
export class PromptCache {
  #seen: string[] = [];

  cachedTokens(text: string): number {
    let best = 0;
    for (const prev of this.#seen) {
      const n = Math.min(prev.length, text.length);
      let i = 0;
      while (i < n && prev.charCodeAt(i) === text.charCodeAt(i)) i++;
      if (i > best) best = i;
    }
    this.#seen.push(text);
    if (this.#seen.length > 16) this.#seen.shift();
    const tokens = Math.floor(best / 4);
    return tokens < 1024 ? 0 : 1024 + Math.floor((tokens - 1024) / 128) * 128;
  }

  reset(): void {
    this.#seen = [];
  }
}

let counter = 0;

/** `POST /v1/responses/compact`: the user's messages verbatim, then one opaque compaction item. */
export function compactResponse(body: FakeRequestBody): Record<string, unknown> {
  const input = Array.isArray(body.input) ? body.input : [];
  const users = input.filter((i) => i.role === 'user' && (i.type === undefined || i.type === 'message'));
  const id = `cmp_fake${(++counter).toString(16).padStart(6, '0')}`;
  const summary = `fake compaction of ${input.length} items`;
  return {
    id,
    object: 'response.compaction',
    created_at: Math.floor(Date.now() / 1000),
    output: [
      ...users.map((u) => ({ ...u, type: 'message' })),
      { type: 'compaction', id, encrypted_content: Buffer.from(summary).toString('base64') },
    ],
    usage: {
      input_tokens: promptTokens(body),
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: 50,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: promptTokens(body) + 50,
    },
  };
}
