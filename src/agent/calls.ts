/**
 * Turning a function call the model made into something runnable — or into the error the model gets back instead:
 * arguments that are not JSON (or not a JSON object), and tool names that do not exist (with the closest real ones).
 * Wrong argument types are the interceptor's to report (its validation error comes back from `run`).
 */
import type { AgentToolHost } from './toolHost.ts';
import { errorMessage } from '../shared/errorMessage.ts';

export type PreparedCall =
  | { ok: true; qualifiedName: string; readOnly: boolean; args: unknown }
  | { ok: false; reason: 'invalid_arguments' | 'unknown_tool'; output: string; qualifiedName?: string };

export function unknownToolMessage(name: string, suggestions: readonly string[]): string {
  const base = `Error: unknown tool '${name}'.`;
  return suggestions.length ? `${base} Did you mean: ${suggestions.join(', ')}?` : base;
}

export function parseArguments(
  raw: string,
): { ok: true; args: Record<string, unknown> } | { ok: false; message: string } {
  // Some models send "" for a tool without parameters.
  if (raw.trim() === '') return { ok: true, args: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (err) {
    return { ok: false, message: `not valid JSON (${errorMessage(err)})` };
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    return { ok: false, message: 'expected a JSON object' };
  }
  return { ok: true, args: parsed as Record<string, unknown> };
}

export function prepareCall(host: AgentToolHost, name: string, rawArguments: string): PreparedCall {
  const info = host.lookup(name);
  if (!info) {
    let suggestions: string[] = [];
    try {
      suggestions = host.closest(name, 3);
    } catch {
      // Suggestions are a courtesy; the error stands without them.
    }
    return { ok: false, reason: 'unknown_tool', output: unknownToolMessage(name, suggestions) };
  }
  const parsed = parseArguments(rawArguments);
  if (!parsed.ok) {
    return {
      ok: false,
      reason: 'invalid_arguments',
      qualifiedName: info.qualifiedName,
      output: `Error: invalid arguments for ${info.qualifiedName}: ${parsed.message}`,
    };
  }
  return { ok: true, qualifiedName: info.qualifiedName, readOnly: info.readOnly, args: parsed.args };
}
