/**
 * A tool's failure returned as text: `Error: <message>` (llm.transform, an expired `ot.result`, the `ot` tools'
 * reference strings). It is a failure like a thrown error or `{success: false}`: the interceptor logs it `Failed` and
 * counts it as one in the statistics, and the panel shows it as an error (it tests the same `Error:` prefix).
 */
const PREFIX = 'Error:';

/** The message of an `Error: …` output (without the prefix), or undefined for anything else. */
export function errorOutputMessage(result: unknown): string | undefined {
  return typeof result === 'string' && result.startsWith(PREFIX) ? result.slice(PREFIX.length).trim() : undefined;
}
