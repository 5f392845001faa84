/** The syntax tree of a command-language program. Every node carries the position where it starts. */
import type { SourcePosition } from './commandErrors.ts';

export type Expr =
  | { readonly kind: 'string'; readonly value: string; readonly pos: SourcePosition }
  | { readonly kind: 'number'; readonly value: number; readonly pos: SourcePosition }
  | { readonly kind: 'boolean'; readonly value: boolean; readonly pos: SourcePosition }
  | { readonly kind: 'null'; readonly pos: SourcePosition }
  | { readonly kind: 'list'; readonly items: readonly Expr[]; readonly pos: SourcePosition }
  | { readonly kind: 'dict'; readonly entries: readonly DictEntry[]; readonly pos: SourcePosition }
  | { readonly kind: 'variable'; readonly name: string; readonly pos: SourcePosition }
  | CallExpr;

export interface DictEntry {
  readonly key: string;
  readonly keyPos: SourcePosition;
  readonly value: Expr;
}

export interface CallExpr {
  readonly kind: 'call';
  /** The dotted name as written (`web.fetch`, `ws`); aliases are resolved by the interpreter. */
  readonly callee: string;
  readonly args: readonly KeywordArg[];
  readonly pos: SourcePosition;
}

export interface KeywordArg {
  readonly name: string;
  readonly namePos: SourcePosition;
  readonly value: Expr;
}

export type Statement =
  | { readonly kind: 'assign'; readonly name: string; readonly value: Expr; readonly pos: SourcePosition }
  | { readonly kind: 'expression'; readonly expr: Expr; readonly pos: SourcePosition };

export interface Program {
  readonly source: string;
  readonly statements: readonly Statement[];
}
