/**
 * `defineTool`: the one way to make a tool (issue #15 step 4). A tool is a plain object with a schema, an effect and
 * an `execute` function; the interceptor validates, logs, times and annotates it (docs/specs/003-tool-interceptor.md), unless it declares that
 * it does some of that itself (`conveniences`).
 */
import type { BaseTool, ParamsSchema, ToolEffect } from './Tool.ts';

const EFFECTS: readonly ToolEffect[] = ['reads', 'changes', 'sends'];

/** Checks the shape once at definition time and freezes it, so a registered tool cannot change under the registry. */
export function defineTool<S extends ParamsSchema, R>(spec: BaseTool<S, R>): BaseTool<S, R> {
  if (!spec.pack || spec.pack.includes('.'))
    throw new Error(`Tool pack must be a non-empty name without dots, got: '${spec.pack}'`);
  if (!spec.name) throw new Error(`Tool in pack '${spec.pack}' has an empty name`);
  if (typeof spec.execute !== 'function') throw new Error(`Tool '${spec.pack}.${spec.name}' has no execute function`);
  if (!EFFECTS.includes(spec.effect))
    throw new Error(
      `Tool '${spec.pack}.${spec.name}' must declare its effect: ${EFFECTS.map((e) => `'${e}'`).join(', ')}`,
    );
  return Object.freeze({ ...spec });
}
