/**
 * Server-side compaction (`POST /responses/compact`, #23): the server replaces the older part of a conversation by
 * the user's messages and one opaque `compaction` item. Not every server has it; a 404/405 (or a 400 saying the path
 * is unknown) means it does not, and the caller summarises by itself.
 */
import OpenAI, { APIError } from 'openai';
import { classifyHttpError, type ErrorContext } from './errors.ts';
import type { CompactRequest, CompactResult, ResponseItem } from './events.ts';
import { errorMessage } from '../shared/errorMessage.ts';

export async function compactOnServer(
  openai: OpenAI,
  model: string,
  request: CompactRequest,
  ctx: ErrorContext & { timeoutMs: number },
): Promise<CompactResult> {
  try {
    const res = await openai.responses.compact(
      {
        model,
        input: request.input as unknown as OpenAI.Responses.ResponseInputItem[],
        ...(request.instructions ? { instructions: request.instructions } : {}),
      },
      { ...(request.signal ? { signal: request.signal } : {}), timeout: ctx.timeoutMs, maxRetries: 1 },
    );
    const output = Array.isArray(res?.output) ? (res.output as unknown as ResponseItem[]) : undefined;
    if (!output?.length) {
      return {
        ok: false,
        unsupported: true,
        error: {
          kind: 'failed',
          message: 'The server answered the compaction request without a window.',
          retryable: false,
        },
      };
    }
    const usage = res.usage
      ? {
          inputTokens: res.usage.input_tokens,
          outputTokens: res.usage.output_tokens,
          cachedTokens: res.usage.input_tokens_details?.cached_tokens ?? 0,
        }
      : undefined;
    return { ok: true, output, ...(usage ? { usage } : {}) };
  } catch (err) {
    if (err instanceof APIError && err.status !== undefined) {
      const info = classifyHttpError(err, {
        ...ctx,
        endpoint: { name: 'compaction', request: 'POST /responses/compact' },
      });
      const unsupported =
        err.status === 404 ||
        err.status === 405 ||
        err.status === 501 ||
        (err.status === 400 && /unknown|invalid url|not found|unrecognized/i.test(info.message));
      return { ok: false, unsupported, error: info };
    }
    return {
      ok: false,
      unsupported: false,
      error: {
        kind: 'network',
        message: `Compaction failed: ${errorMessage(err)}`,
        retryable: true,
      },
    };
  }
}
