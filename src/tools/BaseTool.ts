/**
 * The base class for Otto's own tools. A subclass declares its pack, name, description, zod parameters and whether
 * it only reads, and implements `execute`; the interceptor supplies validation, logging, timing and metadata, so
 * subclasses contain business logic only. Tools that do some of that themselves say so in `conveniences`.
 */
import type { z } from '../shared/zod.ts';
import type { ToolContext } from './context.ts';
import { buildToolDefinition, type ToolDefinition } from './definition.ts';
import type { ToolFlow } from './guard/flow.ts';
import type { Conveniences, ParamsSchema, ToolSpec } from './Tool.ts';

export abstract class BaseTool<S extends ParamsSchema = ParamsSchema, R = unknown> implements ToolSpec<S, R> {
  abstract readonly pack: string;
  abstract readonly name: string;
  abstract readonly description: string;
  abstract readonly parameters: S;
  abstract readonly readOnly: boolean;
  declare readonly flow?: ToolFlow;
  declare readonly examples?: readonly string[];
  declare readonly returns?: string;
  declare readonly strict?: boolean;
  declare readonly inputSchema?: Readonly<Record<string, unknown>>;
  declare readonly conveniences?: Conveniences;

  /** Destructive unless read-only; `isDestructive` refines this per call. */
  get destructive(): boolean {
    return !this.readOnly;
  }

  /** `pack.name`: how users, logs, stats and the command language name the tool. */
  get qualifiedName(): string {
    return `${this.pack}.${this.name}`;
  }

  isDestructive?(args: z.output<S>, ctx: ToolContext): boolean | Promise<boolean>;

  /** The nested Chat-Completions definition; `apiName` is the registry's wire-safe name (defaults to qualifiedName). */
  createToolDefinition(apiName?: string): ToolDefinition {
    return buildToolDefinition(this as unknown as ToolSpec, apiName);
  }

  abstract execute(args: z.output<S>, ctx: ToolContext): Promise<R> | R;
}
