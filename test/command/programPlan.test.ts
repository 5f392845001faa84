/** Plan first (#42 part 2): what a program's text commits to, and which steps are in it. */
import { describe, expect, it } from 'vitest';
import { inPlan, planOf } from '../../src/command/index.ts';

const PROGRAM = [
  'mails = dom.find(query="email rows")',
  'pick = llm.transform(input=mails, prompt="ref of the newsletter", schema={"type": "string"})',
  'dom.click(ref=pick)',
  'dom.click(text="Archive")',
  'ot.run(code="tabs.navigate(url=\\"https://mail.example/settings\\")")',
].join('\n');

describe('planOf', () => {
  it('lists each call with its literal arguments, and the strings the text wrote', () => {
    const plan = planOf(PROGRAM);
    expect(plan.steps.map((s) => [s.tool, s.literals])).toEqual([
      ['dom.find', { query: 'email rows' }],
      ['llm.transform', { prompt: 'ref of the newsletter' }],
      ['dom.click', {}],
      ['dom.click', { text: 'Archive' }],
      ['ot.run', { code: 'tabs.navigate(url="https://mail.example/settings")' }],
      ['tabs.navigate', { url: 'https://mail.example/settings' }],
    ]);
    expect([...plan.strings]).toContain('string');
    expect([...plan.strings]).toContain('Archive');
  });

  it('a text that does not parse plans nothing', () => {
    expect(planOf('dom.click(').steps).toEqual([]);
  });
});

describe('inPlan', () => {
  const plan = planOf('dom.click(text="Archive")\nx = dom.find(query="Send")\nforms.submit(ref=x)');
  it('a step with the literal arguments the text gave is in the plan; computed ones are free', () => {
    expect(inPlan(plan, 'dom.click', { text: 'Archive' })).toBe(true);
    expect(inPlan(plan, 'forms.submit', { ref: 'e42' })).toBe(true);
  });
  it('another tool, or a target other than the one the text named, is not', () => {
    expect(inPlan(plan, 'dom.click', { text: 'Delete' })).toBe(false);
    expect(inPlan(plan, 'dom.type', { ref: 'e3', text: 'hi' })).toBe(false);
  });
  it('a program run from a computed value adds no steps', () => {
    const p = planOf('code = dom.text(ref="e4")\not.run(code=code)');
    expect(inPlan(p, 'ot.run', { code: 'dom.click(text="Delete")' })).toBe(true);
    expect(inPlan(p, 'dom.click', { text: 'Delete' })).toBe(false);
  });
  it('an alias written in the text resolves to its tool', () => {
    const p = planOf('click(text="Archive")');
    const resolve = (c: string) => (c === 'click' ? 'dom.click' : c);
    expect(inPlan(p, 'dom.click', { text: 'Archive' }, resolve)).toBe(true);
  });
});
