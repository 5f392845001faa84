/** The command language: see README.md. What the rest of Otto imports; the files export more for each other. */
export { CommandError } from './commandErrors.ts';
export type { SourcePosition } from './commandErrors.ts';
export { tokenize, tokenizePartial, readStringLiteral } from './lexer.ts';
export type { Expr, Program, Statement } from './ast.ts';
export { parse, parseExpression, MAX_DEPTH } from './parser.ts';
export { runProgram, checkProgram } from './interpreter.ts';
export { MAX_NESTING, enterProgram, newBudget } from './budget.ts';
export type { ProgramScope } from './budget.ts';
export { Labelled, join as joinLabels, type ValueLabels } from './valueLabels.ts';
export type { CallFn } from './interpreter.ts';
export { formatLiteral, formatString, formatCall, isName } from './literals.ts';
export { rewriteAliases, validateAliases, findAliasProblems, resolveAlias } from './toolAliases.ts';
export {
  parseSnippetInvocation,
  renderSnippet,
  expandSnippet,
  findSnippetProblems,
  snippetExample,
} from './snippetPrograms.ts';
export type { SnippetDefinition, SnippetMap, SnippetParam } from './snippetPrograms.ts';
export { classifyInput, helpCommandToSource, parseHelpCommand } from './classify.ts';
export type { CommandVocabulary } from './classify.ts';
export { commandSource, runCommandInput, runSnippet } from './runCommand.ts';
export type { CommandSource } from './runCommand.ts';
export { planOf, inPlan, type ProgramPlan, type PlanStep } from './programPlan.ts';
export { plannerView, plannerError } from './plannerView.ts';
