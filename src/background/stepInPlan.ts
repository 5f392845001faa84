/**
 * Plan first (#42 part 2): whether a program's step is in its plan, with the registry's view of tools. A tool that
 * only reads is always in it (a page can change what is read, and reading changes nothing); another is when the
 * program's text writes a call to it — by name or alias — with the literal arguments the step has
 * (command/programPlan.ts). A tool the registry does not know is judged as an action.
 */
import { inPlan, planOf } from '../command/index.ts';
import { qualifiedNameOf, readsOnly } from '../tools/Tool.ts';
import type { ToolRegistry } from '../tools/ToolRegistry.ts';

export function stepInPlan(
  registry: ToolRegistry,
  program: string,
  qualifiedName: string,
  args: Readonly<Record<string, unknown>>,
): boolean {
  const tool = registry.resolve(qualifiedName);
  if (tool && readsOnly(tool)) return true;
  const resolve = (callee: string) => {
    const t = registry.resolve(callee);
    return t ? qualifiedNameOf(t) : undefined;
  };
  return inPlan(planOf(program), qualifiedName, args, resolve);
}
