/**
 * Raw tools: a plain object with a schema and an `execute` function, no base class and no conveniences
 * (docs/specs/003-tool-interceptor.md, Story 3). The interceptor validates, logs, times and annotates them like any
 * other tool.
 */
import type { ParamsSchema, RawTool } from './Tool.ts';

/** Checks the shape once at definition time and freezes it, so a registered tool cannot change under the registry. */
export function defineTool<S extends ParamsSchema, R>(spec: RawTool<S, R>): RawTool<S, R> {
  if (!spec.pack || spec.pack.includes('.'))
    throw new Error(`Tool pack must be a non-empty name without dots, got: '${spec.pack}'`);
  if (!spec.name) throw new Error(`Tool in pack '${spec.pack}' has an empty name`);
  if (typeof spec.execute !== 'function') throw new Error(`Tool '${spec.pack}.${spec.name}' has no execute function`);
  return Object.freeze({ ...spec });
}
