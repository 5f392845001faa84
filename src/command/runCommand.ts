/**
 * Running what the user typed in command mode: `/help ...`, `$snippet ...`, or a program.
 */
import { helpCommandToSource } from './classify.ts';
import { runProgram, type InterpreterOptions, type RunResult } from './interpreter.ts';
import { expandSnippet, isSnippetInvocation, parseSnippetInvocation, type SnippetMap } from './snippetPrograms.ts';

export interface CommandRunOptions extends InterpreterOptions {
  snippets?: SnippetMap;
}

export interface CommandSource {
  kind: 'help' | 'snippet' | 'program';
  /** The program that runs (for a snippet, its expansion). */
  source: string;
  /** For snippets: the snippet's name. */
  snippet?: string;
}

/** What a command-mode input runs as. Throws CommandError for a bad snippet invocation. */
export function commandSource(text: string, snippets: SnippetMap = {}): CommandSource {
  const help = helpCommandToSource(text);
  if (help !== null) return { kind: 'help', source: help };
  if (isSnippetInvocation(text)) {
    const invocation = parseSnippetInvocation(text);
    return { kind: 'snippet', source: expandSnippet(invocation, snippets), snippet: invocation.name };
  }
  return { kind: 'program', source: text };
}

/** Runs a snippet invocation; errors in the body are labelled `snippet '<name>'`. */
export async function runSnippet(
  invocation: string,
  snippets: SnippetMap,
  options: InterpreterOptions,
): Promise<RunResult> {
  const parsed = parseSnippetInvocation(invocation);
  const source = expandSnippet(parsed, snippets);
  return runProgram(source, { ...options, label: options.label ?? `snippet '${parsed.name}'` });
}

/** Runs command-mode input (see `commandSource`). Throws only CommandError. */
export async function runCommandInput(
  text: string,
  options: CommandRunOptions,
): Promise<RunResult & { command: CommandSource }> {
  const command = commandSource(text, options.snippets ?? {});
  const label = command.kind === 'snippet' ? `snippet '${command.snippet ?? ''}'` : options.label;
  const runOptions: InterpreterOptions = { ...options };
  if (label !== undefined) runOptions.label = label;
  const result = await runProgram(command.source, runOptions);
  return { ...result, command };
}
