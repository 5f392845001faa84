/**
 * Aliases: short names for tools (`ws: web.fetch`). They apply to call syntax only — the callee of a call — never to
 * text inside strings or comments, never to part of a longer name, and never after a dot.
 *
 * A call's whole (possibly dotted) callee is matched against the alias names, so a longer alias can never be shadowed
 * by a shorter one that is its prefix (`ws(` is `ws`, never `w` + `s(`): the "longest alias first" rule holds by
 * construction. A target that is itself an alias is followed to its end; cycles are refused.
 */
import { CommandError } from './commandErrors.ts';
import { tokenizePartial } from './lexer.ts';

export type AliasMap = Readonly<Record<string, string>>;

/** A name segment as the lexer reads it. */
const SEGMENT = '[A-Za-z_][A-Za-z0-9_]*(?:-[A-Za-z_][A-Za-z0-9_]*)*';
const ALIAS_NAME_RE = new RegExp(`^${SEGMENT}(?:\\.${SEGMENT})*$`);
const QUALIFIED_RE = new RegExp(`^${SEGMENT}(?:\\.${SEGMENT})+$`);

/** True for `pack.fn` (two or more dotted name segments). */
export function isQualifiedName(name: string): boolean {
  return QUALIFIED_RE.test(name);
}

export interface AliasValidationOptions {
  /** When given, a target (after following chains) that is not a known tool is refused. */
  isKnownCallable?: (name: string) => boolean;
}

/** Every problem with an alias map, as readable sentences (empty when it is valid). Sorted by alias name. */
export function findAliasProblems(aliases: AliasMap, options: AliasValidationOptions = {}): string[] {
  const problems: string[] = [];
  const names = Object.keys(aliases).sort();
  for (const name of names) {
    const target = aliases[name] as unknown;
    if (!ALIAS_NAME_RE.test(name)) {
      problems.push(`Alias '${name}' is not a valid name: use letters, digits and '_' (for example ws)`);
      continue;
    }
    if (typeof target !== 'string' || !isQualifiedName(target)) {
      problems.push(`Alias '${name}' has target ${JSON.stringify(target)}, which is not a tool name like pack.fn`);
      continue;
    }
    const chain = aliasChain(name, aliases);
    if (chain.cycle) {
      // Report each cycle once, from its alphabetically first member.
      const members = chain.names.slice(chain.names.indexOf(chain.names[chain.names.length - 1] as string));
      const first = [...members].sort()[0];
      if (first === name) problems.push(`Alias cycle: ${members.join(' -> ')}`);
      continue;
    }
    const final = chain.names[chain.names.length - 1] as string;
    if (options.isKnownCallable && !options.isKnownCallable(final)) {
      problems.push(`Alias '${name}' maps to '${final}', which is not a known tool`);
    }
  }
  return problems;
}

/** Throws a CommandError (kind `alias`) describing every problem, one per line. */
export function validateAliases(aliases: AliasMap, options: AliasValidationOptions = {}): void {
  const problems = findAliasProblems(aliases, options);
  if (problems.length) throw new CommandError(problems.join('\n'), { kind: 'alias' });
}

function aliasChain(name: string, aliases: AliasMap): { names: string[]; cycle: boolean } {
  const names = [name];
  let current = name;
  while (Object.hasOwn(aliases, current)) {
    const target = aliases[current];
    if (typeof target !== 'string') break;
    if (names.includes(target)) return { names: [...names, target], cycle: true };
    names.push(target);
    current = target;
  }
  return { names, cycle: false };
}

/**
 * The tool a callee refers to: the alias's final target, or the name itself when it is not an alias. Throws
 * CommandError (kind `alias`) for a cycle.
 */
export function resolveAlias(name: string, aliases: AliasMap): string {
  if (!Object.hasOwn(aliases, name)) return name;
  const chain = aliasChain(name, aliases);
  if (chain.cycle) throw new CommandError(`Alias cycle: ${chain.names.join(' -> ')}`, { kind: 'alias' });
  return chain.names[chain.names.length - 1] as string;
}

/**
 * Rewrites alias calls in `source` to their targets (`ws(url="x")` → `web.fetch(url="x")`). Only a callee — a dotted
 * name that is not preceded by '.' and is followed by '(' — is replaced; strings, comments and everything else are
 * left byte for byte. Text the lexer cannot read (from an unterminated string on) is left unchanged. Throws only
 * CommandError (for an alias cycle).
 */
export function rewriteAliases(source: string, aliases: AliasMap): string {
  if (Object.keys(aliases).length === 0) return source;
  const { tokens } = tokenizePartial(source);
  let out = '';
  let copied = 0;
  let i = 0;
  while (i < tokens.length) {
    const token = tokens[i] as (typeof tokens)[number];
    const previous = tokens[i - 1];
    if (token.kind !== 'name' || (previous?.kind === 'punct' && previous.text === '.')) {
      i++;
      continue;
    }
    // The maximal dotted name starting here.
    let j = i;
    let callee = token.text;
    while (tokens[j + 1]?.kind === 'punct' && tokens[j + 1]?.text === '.' && tokens[j + 2]?.kind === 'name') {
      callee += `.${(tokens[j + 2] as (typeof tokens)[number]).text}`;
      j += 2;
    }
    const after = tokens[j + 1];
    if (after?.kind === 'punct' && after.text === '(' && Object.hasOwn(aliases, callee)) {
      const end = (tokens[j] as (typeof tokens)[number]).end;
      out += source.slice(copied, token.start) + resolveAlias(callee, aliases);
      copied = end;
    }
    i = j + 1;
  }
  return out + source.slice(copied);
}
