/**
 * `llm.transform`: reshape data with a second model call (docs/specs/000-llm-transform.md). Validation happens first,
 * in the reference's order, and returns its error without any request; API errors are returned as `Error: ...`, never
 * thrown, with anything that looks like a key replaced by the authentication message. Calls the Chat Completions
 * endpoint of `transform.base_url` — many servers that lack the Responses API still speak it.
 */
import OpenAI from 'openai';
import { apiKeyProblem } from '../../../models/apiKey.ts';
import type { OttoConfig } from '../../../config/schema.ts';
import type { Logger } from '../../../shared/log.ts';
import { errorMessage } from '../../../shared/errorMessage.ts';

export const SYSTEM_PROMPT =
  "You are a data transformation assistant. Follow the user's instructions precisely. Output ONLY the requested format, no explanations.";
export const TEMPERATURE = 0.1;
export const AUTH_ERROR = 'Authentication error - check OPENAI_API_KEY in secrets.yaml';

export const ERRORS = {
  prompt: 'Error: prompt is required and cannot be empty',
  input: 'Error: input is required and cannot be empty',
  apiKey: 'Error: Transform tool not available. Set OPENAI_API_KEY in secrets.yaml.',
  baseUrl: 'Error: Transform tool not available. Set transform.base_url in config.',
  model: 'Error: Transform tool not available. Set transform.model in config.',
} as const;

export interface TransformOptions {
  input: unknown;
  prompt: string;
  model?: string;
  json_mode?: boolean;
}

export interface TransformDeps {
  config: OttoConfig['transform'];
  apiKey: string | undefined;
  logger: Logger;
  signal?: AbortSignal;
  /** Injected in tests; default the global fetch. */
  fetch?: typeof fetch;
  /** Called with the request's usage and latency (statistics). */
  onUsage?: (u: { model: string; inputTokens: number; outputTokens: number; latencyMs: number }) => void;
}

/** Non-string input becomes text the model can read: JSON for structures, String() for the rest. */
export function inputToText(input: unknown): string {
  if (typeof input === 'string') return input;
  if (input === undefined || input === null) return '';
  if (typeof input === 'object') {
    try {
      return JSON.stringify(input, null, 2);
    } catch {
      return String(input);
    }
  }
  return String(input);
}

/**
 * The spec's rule (an error text with `api_key`, any case, or `sk-` becomes AUTH_ERROR) widened to what it is for: a
 * key that does not start with `sk-` (`gsk_…`, a proxy's own token) rejected with `401 Invalid API Key: …` must get the
 * same words, so also the key itself, "API key" written with a space, and any 401 (the server refused the key).
 */
export function sanitizeError(message: string, apiKey?: string, status?: number): string {
  const namesKey = /api[_ -]?key/i.test(message) || message.includes('sk-');
  const quotesKey = apiKey !== undefined && apiKey.length >= 8 && message.includes(apiKey);
  return namesKey || quotesKey || status === 401 ? AUTH_ERROR : message;
}

/** The HTTP status of an SDK error, when it has one. */
function statusOf(error: unknown): number | undefined {
  return error instanceof OpenAI.APIError && typeof error.status === 'number' ? error.status : undefined;
}

export function userMessage(input: string, prompt: string): string {
  return `Input data:\n${input}\n\nInstructions:\n${prompt}`;
}

/** Keyword arguments only: `transform({ input, prompt })`. Resolves to the result or an `Error: ...` string. */
export async function transform(options: TransformOptions, deps: TransformDeps, ...extra: unknown[]): Promise<string> {
  if (extra.length || typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new TypeError('transform() takes keyword arguments only: transform({ input: data, prompt: "..." })');
  }
  const prompt = typeof options.prompt === 'string' ? options.prompt : '';
  const input = inputToText(options.input);
  if (!prompt.trim()) return ERRORS.prompt;
  if (!input.trim()) return ERRORS.input;
  if (!deps.apiKey) return ERRORS.apiKey;
  const keyProblem = apiKeyProblem(deps.apiKey);
  if (keyProblem) return `Error: ${keyProblem}`;
  if (!deps.config.base_url) return ERRORS.baseUrl;
  const model = options.model || deps.config.model;
  if (!model) return ERRORS.model;
  const jsonMode = options.json_mode === true;

  const span = deps.logger.span('llm.transform', { inputLen: input.length, promptLen: prompt.length, model, jsonMode });
  const started = performance.now();
  // transform.timeout is the time the user waits, retries included: one deadline for the whole call.
  const timeoutMs = deps.config.timeout * 1000;
  const deadline = AbortSignal.timeout(timeoutMs);
  const signal = deps.signal ? AbortSignal.any([deps.signal, deadline]) : deadline;
  try {
    const client = new OpenAI({
      apiKey: deps.apiKey,
      baseURL: deps.config.base_url,
      timeout: timeoutMs,
      maxRetries: 1,
      dangerouslyAllowBrowser: true,
      ...(deps.fetch ? { fetch: deps.fetch } : {}),
    });
    const completion = await client.chat.completions.create(
      {
        model,
        temperature: TEMPERATURE,
        messages: [
          { role: 'system', content: SYSTEM_PROMPT },
          { role: 'user', content: userMessage(input, prompt) },
        ],
        ...(deps.config.max_tokens !== undefined ? { max_tokens: deps.config.max_tokens } : {}),
        ...(jsonMode ? { response_format: { type: 'json_object' as const } } : {}),
      },
      { signal },
    );
    const output = completion.choices[0]?.message?.content ?? '';
    const usage = completion.usage;
    const latencyMs = Math.round((performance.now() - started) * 100) / 100;
    deps.onUsage?.({
      model,
      inputTokens: usage?.prompt_tokens ?? 0,
      outputTokens: usage?.completion_tokens ?? 0,
      latencyMs,
    });
    if (jsonMode) {
      try {
        JSON.parse(output);
      } catch {
        const error = `the model did not return valid JSON: ${output.slice(0, 200)}`;
        span.fail(error, { outputLen: output.length });
        return `Error: ${error}`;
      }
    }
    span.end({
      outputLen: output.length,
      ...(usage
        ? { inputTokens: usage.prompt_tokens, outputTokens: usage.completion_tokens, totalTokens: usage.total_tokens }
        : {}),
    });
    return output;
  } catch (err) {
    const timedOut = deadline.aborted && !deps.signal?.aborted;
    const raw = timedOut
      ? `the request timed out after ${deps.config.timeout} s (transform.timeout)`
      : errorMessage(err);
    const error = sanitizeError(raw, deps.apiKey, statusOf(err));
    span.fail(error);
    return `Error: ${error}`;
  }
}
