/**
 * Scripting the fake model in e2e tests and benchmarks: the calls a turn makes, a turn that acts on what the model
 * just read, and the tool outputs a request carried (the model's whole view of the tools' results).
 */
import type { FakeApi } from '../../test/support/fake-api/index.ts';
import type { RecordedRequest, ScriptedCall, Turn } from '../../test/support/fake-api/turns.ts';

/** One function call of a scripted turn (`name` in wire form, e.g. `dom__click`). */
export const call = (name: string, args: Record<string, unknown> = {}): ScriptedCall => ({ name, arguments: args });

/**
 * A model turn whose calls depend on what the model just read (the last function_call_output, or the user's text):
 * it answers a request whose last input matches `match`, computing its calls from that input.
 */
export function reading(
  match: RegExp,
  calls: (lastInput: string) => ScriptedCall[],
  options: Pick<Turn, 'label' | 'times'> = {},
): Turn {
  const turn: Turn = {
    ...options,
    match: (r: RecordedRequest) => {
      if (!match.test(r.lastInput)) return false;
      turn.calls = calls(r.lastInput);
      return true;
    },
  };
  return turn;
}

/** The function_call_outputs a request carried, in order, as text (a structured output as its JSON). */
export function outputsSent(req: RecordedRequest): string[] {
  return ((req.body?.input ?? []) as { type: string; output?: unknown }[])
    .filter((i) => i.type === 'function_call_output')
    .map((i) => (typeof i.output === 'string' ? i.output : JSON.stringify(i.output)));
}

/** The tool outputs the model has been sent so far: the last request carries the whole transcript. */
export function lastOutputs(api: FakeApi): string[] {
  const last = api.responsesRequests().at(-1);
  if (!last) throw new Error('the fake model has had no request yet');
  return outputsSent(last);
}
