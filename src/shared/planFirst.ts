/**
 * Whether plan first is on (#42 part 2, docs/decisions/plan-first.md): config `agent.plan_first` in code mode. In
 * tools and both modes the model calls page tools itself and reads their output, so there is no plan to keep to.
 */
export function planFirstOn(agent: { readonly plan_first?: boolean; readonly mode?: string }): boolean {
  return agent.plan_first === true && agent.mode === 'code';
}
