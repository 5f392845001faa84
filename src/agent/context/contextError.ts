/**
 * A server's "the request is too long for this model" error, whatever server sent it (#23): OpenAI's
 * `context_length_exceeded`, and the words vLLM, llama.cpp, LM Studio, Anthropic-, Gemini- and Mistral-compatible
 * servers use. Such a request is compacted and asked once more instead of failing the run.
 */
import type { ModelErrorInfo } from '../../models/events.ts';

const CODES = new Set(['context_length_exceeded', 'string_above_max_length', 'context_window_exceeded']);

const WORDS =
  /context[_ ]length|context window|maximum context|context size|exceeds? (the )?(available )?context|prompt is too long|input is too long|too many (input )?tokens|reduce the length of the (messages|input|prompt)|input token count .*exceeds|tokens? (limit|count) exceeded|exceed(s|ed)? the maximum (number of )?tokens/i;

export function isContextLengthError(error: Pick<ModelErrorInfo, 'code' | 'message' | 'status' | 'kind'>): boolean {
  if (error.code && CODES.has(error.code)) return true;
  if (error.kind === 'auth' || error.kind === 'rate_limit' || error.kind === 'network' || error.kind === 'aborted')
    return false;
  return WORDS.test(error.message);
}
