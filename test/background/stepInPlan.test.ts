/** Plan first (#42 part 2): a program's step against its plan, with the real registry's view of tools. */
import { describe, expect, it } from 'vitest';
import { buildRegistry } from '../../src/background/registry.ts';
import { stepInPlan } from '../../src/background/stepInPlan.ts';
import { DEFAULT_CONFIG } from '../../src/config/schema.ts';

const registry = buildRegistry(DEFAULT_CONFIG);
const PROGRAM = 'rows = dom.text(selector=".mails")\ndom.click(selector="#archive")';

describe('stepInPlan', () => {
  it('a read is always in the plan, even one the text did not write', () => {
    expect(stepInPlan(registry, PROGRAM, 'dom.snapshot', {})).toBe(true);
  });
  it('an action is in it only with the literal target the text wrote', () => {
    expect(stepInPlan(registry, PROGRAM, 'dom.click', { selector: '#archive' })).toBe(true);
    expect(stepInPlan(registry, PROGRAM, 'dom.click', { selector: '#save' })).toBe(false);
    expect(stepInPlan(registry, PROGRAM, 'dom.check', { selector: '#fwd' })).toBe(false);
  });
  it('a tool the registry does not know is judged as an action', () => {
    expect(stepInPlan(registry, PROGRAM, 'evil.send', {})).toBe(false);
  });
});
