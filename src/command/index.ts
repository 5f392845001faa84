/** The command language: see README.md. */
export { CommandError, LineMap, formatCommandMessage } from './errors.ts';
export type { CommandErrorKind, CommandErrorOptions, SourcePosition } from './errors.ts';
export { tokenize, tokenizePartial, readStringLiteral, describeToken } from './lexer.ts';
export type { Token, TokenKind, PartialTokens, StringLiteral } from './lexer.ts';
export type { CallExpr, DictEntry, Expr, KeywordArg, Program, Statement } from './ast.ts';
export { parse, parseExpression, isLiteralName, MAX_DEPTH } from './parser.ts';
export { runProgram, interpret, checkProgram } from './interpreter.ts';
export { MAX_NESTING, MAX_CALLS, enterProgram, newBudget, spendCall, yieldToEventLoop } from './budget.ts';
export type { ProgramScope, RunBudget } from './budget.ts';
export { Labelled, join as joinLabels, type ValueLabels } from './labels.ts';
export type { CallFn, InterpreterOptions, RunResult } from './interpreter.ts';
export { formatLiteral, formatString, formatCall, isName } from './literals.ts';
export { rewriteAliases, validateAliases, findAliasProblems, resolveAlias, isQualifiedName } from './aliases.ts';
export type { AliasMap, AliasValidationOptions } from './aliases.ts';
export {
  parseSnippetInvocation,
  isSnippetInvocation,
  renderSnippet,
  expandSnippet,
  getSnippet,
  scanPlaceholders,
  findSnippetProblems,
  snippetExample,
} from './snippets.ts';
export type { SnippetDefinition, SnippetInvocation, SnippetMap, SnippetParam } from './snippets.ts';
export { classifyInput, helpCommandToSource, parseHelpCommand } from './classify.ts';
export type { CommandVocabulary, InputKind } from './classify.ts';
export { commandSource, runCommandInput, runSnippet } from './run.ts';
export type { CommandRunOptions, CommandSource } from './run.ts';
