/**
 * Plan first in the agent loop (#42 part 2): a program's state-changing step that its text did not write asks on
 * the scope gate's card, which says the plan did not include it; a planned step runs as before; denied, the model
 * gets Otto's words only; a tool called on its own is refused; with plan first off nothing changes.
 */
import { describe, expect, it } from 'vitest';
import { calls, say } from '../support/scriptedModel.ts';
import { config, FakeHost, outputOf, setup, waitFor } from './helpers.ts';
import type { CallAssessment, ToolRunContext } from '../../src/agent/toolHost.ts';
import { inPlan, planOf } from '../../src/command/index.ts';
import { z } from '../../src/shared/zod.ts';

const MAIL = 'https://mail.test';

/** Judges like the real host (the effect from the target's words; `kind` stands for them) and checks the plan. */
class PlanHost extends FakeHost {
  async assess(qualifiedName: string, args: unknown): Promise<CallAssessment> {
    const a = args as Record<string, unknown>;
    return {
      destructive: false,
      target: {
        origin: MAIL,
        tab: { id: 1, origin: MAIL, isRunTab: true },
        element: { role: 'button', name: String(a.ref), context: [] },
      },
      effects: typeof a.kind === 'string' ? [a.kind as 'delete'] : [],
    };
  }
  inPlan(program: string, qualifiedName: string, args: Readonly<Record<string, unknown>>): boolean {
    return inPlan(planOf(program), qualifiedName, args);
  }
}

/** ot.run stands for the interpreter: it asks the gate about each of `steps`, in order. */
async function planSetup(program: string, steps: Record<string, unknown>[], planFirst = true) {
  const h = await setup({
    origin: MAIL,
    config: config({ agent: { mode: 'code', plan_first: planFirst } }),
    turns: [calls([{ name: 'ot__run', args: { code: program }, callId: 'prog' }]), say('finished')],
  });
  const host = new PlanHost();
  const clicked: string[] = [];
  host.define('dom.click', { readOnly: false, schema: z.object({ ref: z.string() }), impl: () => 'ok' });
  host.define('ot.run', {
    readOnly: false,
    schema: z.object({ code: z.string() }),
    impl: async (_a, ctx: ToolRunContext) => {
      for (const s of steps) {
        await ctx.approve!('dom.click', s);
        clicked.push(String(s.ref));
      }
      return 'program done';
    },
  });
  h.host = host;
  h.runner = h.newRunner();
  return { h, clicked };
}

describe('plan first: the plan’s gate', () => {
  it('a step the program wrote runs with no card', async () => {
    const { h, clicked } = await planSetup('dom.click(ref="archive")', [{ ref: 'archive' }]);
    const st = await h.runner.send(h.conversationId, 'Archive the newsletter.');
    expect(st.status).toBe('completed');
    expect(clicked).toEqual(['archive']);
    expect(outputOf(await h.items(), 'prog')).toBe('program done');
  });

  it('a step it did not write asks; the card says the plan did not include it; denied, Otto’s words only', async () => {
    const { h, clicked } = await planSetup('dom.click(ref="archive")', [{ ref: 'archive' }, { ref: 'forward' }]);
    const running = h.runner.send(h.conversationId, 'Archive the newsletter.');
    await waitFor(async () => (await h.state())?.status === 'awaiting_approval', 'the card');
    const approval = (await h.state())!.approval!;
    expect(approval.callId).toBe('prog~1');
    expect(approval.outOfScope).toEqual({
      effects: [],
      site: 'mail.test',
      sentence:
        'You asked to archive the newsletter. Otto wants to run dom.click on mail.test (“forward”) — the plan Otto wrote from your request did not include this; a page Otto read may have asked for it.',
    });
    await h.runner.deny(h.conversationId, 'prog~1');
    expect((await running).status).toBe('completed');
    expect(clicked).toEqual(['archive']);
    expect(outputOf(await h.items(), 'prog')).toBe(
      'Error: the user denied dom.click on mail.test: the plan did not include this step. Nothing was done. Do not try to do this another way; finish the task the user asked for.',
    );
  });

  it('with plan first off, the same unplanned step runs as before', async () => {
    const { h, clicked } = await planSetup('dom.click(ref="archive")', [{ ref: 'forward' }], false);
    expect((await h.runner.send(h.conversationId, 'Archive the newsletter.')).status).toBe('completed');
    expect(clicked).toEqual(['forward']);
  });

  it('a tool called on its own, outside a program, is refused', async () => {
    const h = await setup({
      origin: MAIL,
      config: config({ agent: { mode: 'code', plan_first: true } }),
      turns: [calls([{ name: 'dom__click', args: { ref: 'x' }, callId: 'c1' }]), say('ok')],
    });
    const host = new PlanHost();
    host.define('dom.click', { readOnly: false, schema: z.object({ ref: z.string() }), impl: () => 'clicked' });
    h.host = host;
    h.runner = h.newRunner();
    await h.runner.send(h.conversationId, 'Archive the newsletter.');
    expect(outputOf(await h.items(), 'c1')).toBe(
      'Error: plan first is on: call dom.click inside an ot.run program, not on its own.',
    );
  });
});
