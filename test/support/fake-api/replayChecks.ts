/**
 * Input checks the real API performs and that catch transcript-replay bugs early: a reasoning item replayed under
 * store:false without its encrypted_content, item references under store:false, a function_call_output without
 * its function_call, a function_call without its output. Messages are the real API's.
 */
import { openAiError, type FakeRequestBody } from './turns.ts';

export interface ReplayProblem {
  status: number;
  body: { error: Record<string, unknown> };
}

export function checkReplay(body: FakeRequestBody): ReplayProblem | undefined {
  const input = Array.isArray(body.input) ? body.input : [];
  const chained = typeof body.previous_response_id === 'string';
  if (body.store === false) {
    for (const item of input) {
      const stored =
        (item.type === 'reasoning' && typeof item.encrypted_content !== 'string') || item.type === 'item_reference';
      if (stored) {
        const id = String(item.id ?? '');
        return {
          status: 404,
          body: openAiError(
            `Item with id '${id}' not found. Items are not persisted when \`store\` is set to false. Try again with \`store\` set to true, or remove this item from your input.`,
            'invalid_request_error',
            null,
            'input',
          ),
        };
      }
    }
  }
  if (chained) return undefined; // the earlier items live server-side; nothing to pair locally
  const calls = new Set(input.filter((i) => i.type === 'function_call').map((i) => String(i.call_id)));
  const outputs = new Set(input.filter((i) => i.type === 'function_call_output').map((i) => String(i.call_id)));
  for (const callId of outputs) {
    if (!calls.has(callId)) {
      return {
        status: 400,
        body: openAiError(
          `No tool call found for function call output with call_id ${callId}.`,
          'invalid_request_error',
          null,
          'input',
        ),
      };
    }
  }
  for (const callId of calls) {
    if (!outputs.has(callId)) {
      return {
        status: 400,
        body: openAiError(`No tool output found for function call ${callId}.`, 'invalid_request_error', null, 'input'),
      };
    }
  }
  return undefined;
}
