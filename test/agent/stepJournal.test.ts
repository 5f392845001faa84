/**
 * Code mode: a program that runs again (the guard stopped a step after its own yes, the user said yes on ot.run)
 * takes the steps it completed before from the call's journal (src/agent/stepJournal.ts) instead of acting twice.
 * The programs run in the real interpreter (runCommandText) over real tools; the agent loop is the real one.
 */
import { describe, expect, it } from 'vitest';
import { calls, say } from '../support/scriptedModel.ts';
import { outputOf, setup } from './helpers.ts';
import type { FlowBlock } from '../../src/agent/toolHost.ts';
import { blockedFlowOf, FlowBlockedError, flowSentence } from '../../src/tools/guard/guard.ts';
import { defineTool } from '../../src/tools/defineTool.ts';
import { ToolRegistry } from '../../src/tools/ToolRegistry.ts';
import type { AnyTool } from '../../src/tools/Tool.ts';
import { fromStored, toStored, type StoredRunState } from '../../src/storage/runStateSchema.ts';
import { KEEP_READ_MAX_CHARS, KEEP_TOTAL_MAX_CHARS } from '../../src/agent/stepJournal.ts';
import { nestedRunTool, ProgramHost } from './programHost.ts';
import { z } from '../../src/shared/zod.ts';

const BANK = 'https://bank.example';
const EVIL = 'https://evil.example';

/** The page's side: what each tool did, counted. */
interface World {
  clicks: string[];
  reads: number;
  sends: string[];
  /** web.send is refused by the guard this many more times (the page changed after the step's yes). */
  refusals: number;
}

function registryFor(world: World): ToolRegistry {
  const registry = new ToolRegistry();
  const tools = [
    defineTool({
      pack: 'page',
      name: 'click',
      description: 'click',
      parameters: z.object({ ref: z.string(), why: z.string().optional() }),
      effect: 'changes',
      execute: (a) => {
        world.clicks.push(a.ref);
        return { clicked: a.ref, count: world.clicks.filter((r) => r === a.ref).length };
      },
    }),
    defineTool({
      pack: 'page',
      name: 'read',
      description: 'read',
      parameters: z.object({ big: z.boolean().optional(), pad: z.number().optional() }),
      effect: 'reads',
      // A big read is over the journal's limit; each read says how many reads there were, so a fresh one differs.
      execute: (a) => `read ${++world.reads}${' '.repeat(a.big ? KEEP_READ_MAX_CHARS : (a.pad ?? 0))}`,
    }),
    defineTool({
      pack: 'web',
      name: 'send',
      description: 'send',
      parameters: z.object({ text: z.string() }),
      effect: 'changes',
      execute: (a) => {
        if (world.refusals-- > 0)
          throw new FlowBlockedError('web.send', { ok: false, from: [BANK], to: EVIL, data: a.text, kind: 'url' });
        world.sends.push(a.text);
        return `sent ${a.text}`;
      },
    }),
    nestedRunTool(registry),
  ];
  for (const t of tools) registry.register(t as AnyTool);
  return registry;
}

/** The program host, with the guard's refusal of a step read as the flow it blocked. */
class GuardedProgramHost extends ProgramHost {
  constructor(world: World) {
    super(registryFor(world));
  }
  blockedFlow(error: unknown): FlowBlock | undefined {
    const b = blockedFlowOf(error);
    return b ? { ...b.flow, sentence: flowSentence(b.flow.from, b.flow.to) } : undefined;
  }
}

async function programRun(code: string, world: World) {
  const h = await setup({
    origin: BANK,
    turns: [calls([{ name: 'ot__run', args: { code }, callId: 'prog' }]), say('ok')],
  });
  h.host = new GuardedProgramHost(world);
  h.runner = h.newRunner();
  return h;
}

describe('a program that runs again after the card on ot.run', () => {
  it('does not repeat the steps it completed: their results come from the call’s journal, kept across a worker restart', async () => {
    const world: World = { clicks: [], reads: 0, sends: [], refusals: 1 };
    const h = await programRun('c = page.click(ref="inc")\nt = page.read()\nweb.send(text=t)', world);
    const paused = await h.runner.send(h.conversationId, 'run it');
    expect(paused.approval).toMatchObject({ callId: 'prog', name: 'ot.run', flow: { to: EVIL } });
    expect(world).toEqual({ clicks: ['inc'], reads: 1, sends: [], refusals: 0 });
    // The two completed steps are stored with the call, and the stored state reads back through its schema.
    const stored = await h.store.getRun(h.conversationId);
    const journal = stored!.pendingCalls[0]!.stepJournal!;
    expect(journal.map((r) => [r.path, r.name, r.line, r.value])).toEqual([
      [[0], 'page.click', 1, '{"clicked":"inc","count":1}'],
      [[1], 'page.read', 2, '"read 1"'],
    ]);
    expect(journal[0]!.key).toMatch(/^[0-9a-f]{64}$/);
    expect(fromStored(toStored(stored!)).pendingCalls[0]!.stepJournal).toEqual(journal);

    // Yes on ot.run, in a restarted worker: the program runs from the start; the click is not made again.
    h.runner = h.newRunner();
    const done = await h.runner.approve(h.conversationId, 'prog', 'once');
    expect(done.status).toBe('completed');
    expect(world).toEqual({ clicks: ['inc'], reads: 1, sends: ['read 1'], refusals: -1 });
    expect(outputOf(await h.items(), 'prog')).toBe(
      '[The user approved this call.]\n' +
        '[Steps 1–2 of this program (page.click on line 1, page.read on line 2) were not run again: they had completed in its earlier run, before the approval, and their results from then were used.]\n' +
        'sent read 1',
    );
    expect((await h.state())!.pendingCalls).toEqual([]);
  });

  it('a step whose arguments differ runs again, and nothing kept after it is used; a read over the limit is read again', async () => {
    const world: World = { clicks: [], reads: 0, sends: [], refusals: 1 };
    const program = [
      'page.click(ref="inc")',
      'b = page.read(big=True)',
      'page.click(ref="other", why=b)',
      'page.read()',
      'web.send(text="x")',
    ].join('\n');
    const h = await programRun(program, world);
    await h.runner.send(h.conversationId, 'run it');
    expect(world.clicks).toEqual(['inc', 'other']);
    // The big read is not kept: steps 1, 3 and 4 are.
    const kept = (await h.store.getRun(h.conversationId))!.pendingCalls[0]!.stepJournal!;
    expect(kept.map((r) => r.path)).toEqual([[0], [2], [3]]);
    const done = await h.runner.approve(h.conversationId, 'prog', 'once');
    expect(done.status).toBe('completed');
    // Read again, the big read differs ("read 3"): the click that took it runs again, and so does the read after it.
    expect(world.clicks).toEqual(['inc', 'other', 'other']);
    expect(world.reads).toBe(4);
    expect(world.sends).toEqual(['x']);
    expect(outputOf(await h.items(), 'prog')).toBe(
      '[The user approved this call.]\n' +
        '[Step 1 of this program (page.click on line 1) was not run again: it had completed in its earlier run, before the approval, and its result from then was used.]\n' +
        '[Step 3 (page.click on line 3) differed from the earlier run, so it and the steps after it ran: nothing of that run was used for them.]\n' +
        'sent x',
    );
  });

  it('reads stop being kept once the call’s records would pass their total limit; actions are kept still', async () => {
    const world: World = { clicks: [], reads: 0, sends: [], refusals: 1 };
    const pad = Math.floor(KEEP_TOTAL_MAX_CHARS / 10) - 20;
    const reads = Array.from({ length: 11 }, () => `page.read(pad=${pad})`);
    const h = await programRun([...reads, 'page.click(ref="inc")', 'web.send(text="x")'].join('\n'), world);
    await h.runner.send(h.conversationId, 'run it');
    const kept = (await h.store.getRun(h.conversationId))!.pendingCalls[0]!.stepJournal!;
    expect(kept.map((r) => r.path[0])).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 11]);
    expect(kept.reduce((n, r) => n + (r.value?.length ?? 0), 0)).toBeLessThanOrEqual(KEEP_TOTAL_MAX_CHARS);
  });

  it('a program that fails after a reuse says so after its error', async () => {
    const world: World = { clicks: [], reads: 0, sends: [], refusals: 1 };
    const h = await programRun('page.click(ref="inc")\nweb.send(text="x")\nweb.send(text=5)', world);
    await h.runner.send(h.conversationId, 'run it');
    await h.runner.approve(h.conversationId, 'prog', 'once');
    expect(world.clicks).toEqual(['inc']);
    const out = outputOf(await h.items(), 'prog')!;
    expect(out.split('\n')[0]).toMatch(/^Error: ot\.run, line 3, column 1: web\.send failed: /);
    expect(out.split('\n').at(-1)).toBe(
      '[Step 1 of this program (page.click on line 1) was not run again: it had completed in its earlier run, before the approval, and its result from then was used.]',
    );
  });

  it('a stored journal that does not match the schema is refused when read', () => {
    const state = {
      schemaVersion: 2,
      conversationId: 'c',
      runId: 'r',
      status: 'awaiting_approval',
      phase: 'tools',
      turn: 1,
      pendingCalls: [
        {
          callId: 'prog',
          name: 'ot__run',
          arguments: '{}',
          status: 'awaiting_approval',
          stepJournal: [{ path: [0], key: 'not a digest', name: 'page.click', line: 1, labels: [] }],
        },
      ],
      usage: { inputTokens: 0, outputTokens: 0, reasoningTokens: 0, cachedTokens: 0, responses: 0 },
      startedAt: 1,
      updatedAt: 1,
      heartbeatAt: 1,
    };
    expect(() => fromStored(state)).toThrow(/pendingCalls\.0\.stepJournal\.0\.key/);
  });

  it('a nested program’s completed steps are not run again: the step that ran it runs, and its program takes them from the journal', async () => {
    const world: World = { clicks: [], reads: 0, sends: [], refusals: 1 };
    // Step 2 runs a program whose third step the guard stops after its own yes (web.send, refused once).
    const inner = "page.click(ref='inc')\\nt = page.read()\\nweb.send(text=t)";
    const h = await programRun(`page.read()\not.run(code="${inner}")`, world);
    const paused = await h.runner.send(h.conversationId, 'run it');
    expect(paused.approval).toMatchObject({ callId: 'prog', name: 'ot.run', flow: { to: EVIL } });
    expect(world).toEqual({ clicks: ['inc'], reads: 2, sends: [], refusals: 0 });
    // Kept: the outer read, and the two inner steps by their path (outer step 2 → inner steps 1 and 2); step 2 itself
    // did not complete, so it has no record.
    const stored = await h.store.getRun(h.conversationId);
    const journal = stored!.pendingCalls[0]!.stepJournal!;
    expect(journal.map((r) => [r.path, r.name, r.line, r.value])).toEqual([
      [[0], 'page.read', 1, '"read 1"'],
      [[1, 0], 'page.click', 1, '{"clicked":"inc","count":1}'],
      [[1, 1], 'page.read', 2, '"read 2"'],
    ]);
    expect(fromStored(toStored(stored!)).pendingCalls[0]!.stepJournal).toEqual(journal);

    // Yes on ot.run, in a restarted worker: step 2 runs its program again, whose click and read are not made again.
    h.runner = h.newRunner();
    const done = await h.runner.approve(h.conversationId, 'prog', 'once');
    expect(done.status).toBe('completed');
    expect(world).toEqual({ clicks: ['inc'], reads: 2, sends: ['read 2'], refusals: -1 });
    expect(outputOf(await h.items(), 'prog')).toBe(
      '[The user approved this call.]\n' +
        "[Steps 1 and 2.1–2.2 of this program (page.read on line 1, page.click on line 1 of step 2's program, page.read on line 2 of step 2's program) were not run again: they had completed in its earlier run, before the approval, and their results from then were used.]\n" +
        'sent read 2',
    );
    expect((await h.state())!.pendingCalls).toEqual([]);
  });

  it('a nested program that completed is kept whole: its steps’ records go, and it is given back without running', async () => {
    const world: World = { clicks: [], reads: 0, sends: [], refusals: 1 };
    const h = await programRun(`ot.run(code="page.click(ref='inc')")\nweb.send(text="x")`, world);
    await h.runner.send(h.conversationId, 'run it');
    const kept = (await h.store.getRun(h.conversationId))!.pendingCalls[0]!.stepJournal!;
    expect(kept.map((r) => [r.path, r.name, r.value])).toEqual([[[0], 'ot.run', '"{clicked: inc, count: 1}"']]);
    await h.runner.approve(h.conversationId, 'prog', 'once');
    expect(world.clicks).toEqual(['inc']);
    expect(world.sends).toEqual(['x']);
    expect(outputOf(await h.items(), 'prog')).toBe(
      '[The user approved this call.]\n' +
        '[Step 1 of this program (ot.run on line 1) was not run again: it had completed in its earlier run, before the approval, and its result from then was used.]\n' +
        'sent x',
    );
  });

  it('in a nested program, a step whose arguments differ runs, and the records after it go', async () => {
    const world: World = { clicks: [], reads: 0, sends: [], refusals: 1 };
    // Two levels: outer step 1 → step 1.2 runs a program whose big read is read again (and differs).
    const innermost = "b = page.read(big=True)\\\\npage.click(ref='other', why=b)\\\\nweb.send(text='x')";
    const inner = `page.click(ref='inc')\\not.run(code='''${innermost}''')`;
    const h = await programRun(`ot.run(code="${inner}")`, world);
    await h.runner.send(h.conversationId, 'run it');
    expect(world.clicks).toEqual(['inc', 'other']);
    const kept = (await h.store.getRun(h.conversationId))!.pendingCalls[0]!.stepJournal!;
    expect(kept.map((r) => [r.path, r.name])).toEqual([
      [[0, 0], 'page.click'],
      [[0, 1, 1], 'page.click'],
    ]);
    await h.runner.approve(h.conversationId, 'prog', 'once');
    expect(world.clicks).toEqual(['inc', 'other', 'other']);
    expect(world.sends).toEqual(['x']);
    expect(outputOf(await h.items(), 'prog')).toBe(
      '[The user approved this call.]\n' +
        "[Step 1.1 of this program (page.click on line 1 of step 1's program) was not run again: it had completed in its earlier run, before the approval, and its result from then was used.]\n" +
        "[Step 1.2.2 (page.click on line 2 of step 1.2's program) differed from the earlier run, so it and the steps after it ran: nothing of that run was used for them.]\n" +
        'sent x',
    );
  });

  it('a run paused by a version-1 Otto (journal steps by index) goes on after the update without repeating its steps', async () => {
    const world: World = { clicks: [], reads: 0, sends: [], refusals: 1 };
    const h = await programRun('page.click(ref="inc")\nt = page.read()\nweb.send(text=t)', world);
    await h.runner.send(h.conversationId, 'run it');
    // The same pause as version 1 stored it: `step` for `path`, schemaVersion 1.
    // (Version 1 had no task scope, #42.)
    const { taskScope: _scope, ...stored } = (await h.database.get(
      'runs',
      h.conversationId,
    )) as unknown as StoredRunState;
    const v1 = {
      ...stored,
      schemaVersion: 1,
      pendingCalls: stored.pendingCalls.map((c) => ({
        ...c,
        stepJournal: c.stepJournal!.map(({ path, ...r }) => ({ step: path[0], ...r })),
      })),
    };
    await h.database.put('runs', v1 as never);
    h.runner = h.newRunner();
    expect((await h.runner.approve(h.conversationId, 'prog', 'once')).status).toBe('completed');
    expect(world).toEqual({ clicks: ['inc'], reads: 1, sends: ['read 1'], refusals: -1 });
  });
});
