/**
 * Code mode: a program cut short by the worker dying (src/agent/stepJournal.ts `interruptedOutput`). The worker's
 * death is simulated as in resume.test.ts: runner A is left hung forever inside a step (its promises never settle),
 * and runner B — a new model, a new tool host — is built on the same database. The programs run in the real
 * interpreter (runCommandText) over real tools; the agent loop is the real one. The model's next input is asserted as
 * the literal text it reads.
 */
import { describe, expect, it } from 'vitest';
import { ScriptedModel, calls, say } from '../support/scriptedModel.ts';
import { outputOf, setup, waitFor, type Harness } from './helpers.ts';
import { defineTool } from '../../src/tools/defineTool.ts';
import { ToolRegistry } from '../../src/tools/ToolRegistry.ts';
import type { AnyTool } from '../../src/tools/Tool.ts';
import { fromStored, toStored } from '../../src/storage/runStateSchema.ts';
import { nestedRunTool, ProgramHost } from './programHost.ts';
import { z } from '../../src/shared/zod.ts';

const never = () => new Promise<never>(() => undefined);

/** What the page saw: every click (a click on "hang" never returns), every read. */
interface World {
  clicks: string[];
  reads: number;
}

function registryFor(world: World): ToolRegistry {
  const registry = new ToolRegistry();
  const tools = [
    defineTool({
      pack: 'page',
      name: 'click',
      description: 'click',
      parameters: z.object({ ref: z.string() }),
      effect: 'changes',
      execute: (a) => {
        world.clicks.push(a.ref);
        return a.ref === 'hang' ? never() : { clicked: a.ref };
      },
    }),
    defineTool({
      pack: 'page',
      name: 'read',
      description: 'read',
      parameters: z.object({ hang: z.boolean().optional() }),
      effect: 'reads',
      execute: (a) => {
        world.reads++;
        return a.hang ? never() : `read ${world.reads}`;
      },
    }),
    nestedRunTool(registry),
  ];
  for (const t of tools) registry.register(t as AnyTool);
  return registry;
}

/**
 * Runs `code` as the model's ot.run call until it hangs (`hung` says when), then "restarts the worker": a fresh
 * runner over the same database resumes the run. Returns the harness and what the new worker's tools did.
 */
async function cutShort(code: string, hung: (w: World) => boolean) {
  const world: World = { clicks: [], reads: 0 };
  const h: Harness = await setup({ turns: [calls([{ name: 'ot__run', args: { code }, callId: 'prog' }])] });
  h.host = new ProgramHost(registryFor(world));
  h.runner = h.newRunner();
  void h.runner.send(h.conversationId, 'run it');
  await waitFor(() => hung(world), 'the program hung');
  const stored = (await h.state())!;

  const after: World = { clicks: [], reads: 0 };
  h.model = new ScriptedModel([say('I will check the page.')]);
  h.host = new ProgramHost(registryFor(after));
  const runner = h.newRunner();
  await runner.recoverInterrupted();
  const state = await runner.resume(h.conversationId);
  return { h, stored, state, after, output: outputOf(await h.items(), 'prog') };
}

describe('a program cut short by the worker dying', () => {
  it('names the steps that completed, the action that was running (effect unknown), and that nothing after it ran', async () => {
    const code = 'page.click(ref="a")\nt = page.read()\npage.click(ref="hang")\npage.click(ref="z")';
    const { stored, state, after, output, h } = await cutShort(code, (w) => w.clicks.includes('hang'));
    // What the dead worker left: the click and the read recorded (the read rode on the action's start), the action
    // it was in named as running; the stored state reads back through its schema.
    const call = stored.pendingCalls[0]!;
    expect(call.status).toBe('running');
    expect(call.stepJournal!.map((r) => [r.path, r.name, r.line, r.value])).toEqual([
      [[0], 'page.click', 1, '{"clicked":"a"}'],
      [[1], 'page.read', 2, '"read 1"'],
    ]);
    expect(call.stepsRunning).toEqual([{ path: [2], name: 'page.click', line: 3 }]);
    expect(fromStored(toStored(stored)).pendingCalls[0]).toEqual(call);

    expect(state.status).toBe('completed');
    expect(after).toEqual({ clicks: [], reads: 0 }); // nothing run again
    expect(output).toBe(
      "Error: ot.run was interrupted while running (the extension's worker stopped) during step 3 of its program (page.click on line 3): whether that step took effect is unknown, and the steps after it did not run.\n" +
        'Steps 1–2 (page.click on line 1, page.read on line 2) had completed.\n' +
        'Running the program again would run all of its steps again: check what took effect, then run only what is left.',
    );
    // The call is done: its records are gone with it.
    expect((await h.state())!.pendingCalls).toEqual([]);
  });

  it('stopped in a read after an action: the action completed, and nothing after it acted', async () => {
    const code = 'page.click(ref="a")\npage.read(hang=True)\npage.click(ref="z")';
    const { stored, output } = await cutShort(code, (w) => w.reads === 1);
    expect(stored.pendingCalls[0]!.stepsRunning).toBeUndefined();
    expect(output).toBe(
      "Error: ot.run was interrupted while running (the extension's worker stopped) after step 1 of its program: no step that acts had started since, so nothing after it took effect.\n" +
        'Step 1 (page.click on line 1) had completed.\n' +
        'Running the program again would run all of its steps again: check what took effect, then run only what is left.',
    );
  });

  it('in a nested program: the inner step that was running is named by its path, its program’s completed steps too', async () => {
    const inner = 'page.click(ref=\\"b\\")\\npage.click(ref=\\"hang\\")';
    const code = `page.read()\not.run(code="${inner}")\npage.click(ref="z")`;
    const { stored, output } = await cutShort(code, (w) => w.clicks.includes('hang'));
    expect(stored.pendingCalls[0]!.stepsRunning).toEqual([
      { path: [1], name: 'ot.run', line: 2 },
      { path: [1, 1], name: 'page.click', line: 2 },
    ]);
    expect(output).toBe(
      "Error: ot.run was interrupted while running (the extension's worker stopped) during step 2.2 of its program (page.click on line 2 of step 2's program): whether that step took effect is unknown, and the steps after it did not run.\n" +
        "Steps 1 and 2.1 (page.read on line 1, page.click on line 1 of step 2's program) had completed.\n" +
        'Running the program again would run all of its steps again: check what took effect, then run only what is left.',
    );
  });

  it('stopped in its first action: no step had completed', async () => {
    const { output } = await cutShort('page.click(ref="hang")\npage.click(ref="z")', (w) => w.clicks.length === 1);
    expect(output).toBe(
      "Error: ot.run was interrupted while running (the extension's worker stopped) during step 1 of its program (page.click on line 1): whether that step took effect is unknown, and the steps after it did not run.\n" +
        'No step before it had completed.\n' +
        'Running the program again would run all of its steps again: check what took effect, then run only what is left.',
    );
  });

  it('stopped before any action: nothing was written, so the plain message', async () => {
    const { output } = await cutShort('page.read(hang=True)\npage.click(ref="z")', (w) => w.reads === 1);
    expect(output).toBe(
      "Error: ot.run was interrupted while running (the extension's worker stopped); whether it took effect is unknown. Check before trying again.",
    );
  });
});
