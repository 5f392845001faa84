/**
 * Command mode for the panel: decides whether typed input runs directly (no model) or goes to the chat.
 */
import { tokenizePartial, type Token } from './lexer.ts';
import { formatString } from './literals.ts';
import { isSnippetInvocation, parseSnippetInvocation } from './snippetPrograms.ts';
import { CommandError } from './commandErrors.ts';

export interface CommandVocabulary {
  /** Names of the registered packs (`ot`, `web`, ...). */
  packs: Iterable<string>;
  /** Alias map (only the names are used). */
  aliases: Readonly<Record<string, unknown>>;
  /** Snippet map (only the names are used). */
  snippets: Readonly<Record<string, unknown>>;
}

export type InputKind = 'command' | 'chat';

/**
 * `/help`, `/help query` → the query (`''` for none); anything else → null. Written with trim rather than one regex:
 * `\s+(.*?)\s*$` backtracks quadratically on a long run of spaces, and the panel classifies on every keystroke.
 */
export function parseHelpCommand(text: string): string | null {
  const trimmed = text.trim();
  if (!trimmed.startsWith('/help')) return null;
  const rest = trimmed.slice('/help'.length);
  if (rest === '') return '';
  return /^\s/.test(rest) ? rest.trim() : null;
}

/** `/help x` → `ot.help(query="x")`; `/help` → `ot.help()`; null when the text is not a /help command. */
export function helpCommandToSource(text: string): string | null {
  const query = parseHelpCommand(text);
  if (query === null) return null;
  return query === '' ? 'ot.help()' : `ot.help(query=${formatString(query)})`;
}

/**
 * 'command' when the input is
 * - `/help` or `/help <query>`;
 * - a snippet invocation: `$name` with a known snippet name, or any text that parses as an invocation (so a mistyped
 *   name gets the "Unknown snippet" message instead of going to the model);
 * - a program whose first statement is a call (or `name = call`) of a known pack's tool (`ot.help(`) or of an alias
 *   (`ws(`) — even if the rest does not parse, so the user sees the syntax error.
 * Otherwise 'chat'. Never throws.
 */
export function classifyInput(text: string, vocabulary: CommandVocabulary): InputKind {
  if (parseHelpCommand(text) !== null) return 'command';
  if (isSnippetInvocation(text)) {
    const name = /^\s*\$([A-Za-z0-9_][A-Za-z0-9_-]*)/.exec(text)?.[1] ?? '';
    if (Object.hasOwn(vocabulary.snippets, name)) return 'command';
    try {
      parseSnippetInvocation(text);
      return 'command';
    } catch (error) {
      if (error instanceof CommandError) return 'chat';
      throw error;
    }
  }
  const callee = leadingCallee(tokenizePartial(text).tokens);
  if (callee === null) return 'chat';
  if (Object.hasOwn(vocabulary.aliases, callee)) return 'command';
  const dot = callee.indexOf('.');
  if (dot < 0) return 'chat';
  const pack = callee.slice(0, dot);
  for (const known of vocabulary.packs) if (known === pack) return 'command';
  return 'chat';
}

/** The callee of the first statement when it is `callee(` or `name = callee(`, else null. */
function leadingCallee(tokens: readonly Token[]): string | null {
  let i = 0;
  while (tokens[i]?.kind === 'newline' || isPunct(tokens[i], ';')) i++;
  if (tokens[i]?.kind === 'name' && isPunct(tokens[i + 1], '=')) i += 2;
  const first = tokens[i];
  if (first?.kind !== 'name') return null;
  let callee = first.text;
  i++;
  while (isPunct(tokens[i], '.') && tokens[i + 1]?.kind === 'name') {
    callee += `.${(tokens[i + 1] as Token).text}`;
    i += 2;
  }
  return isPunct(tokens[i], '(') ? callee : null;
}

function isPunct(token: Token | undefined, text: string): boolean {
  return token?.kind === 'punct' && token.text === text;
}
