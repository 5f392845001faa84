/**
 * Code-mode harness shared by the step-journal tests: programs run in the real interpreter (runCommandText) over a
 * registry of real tools, and the agent's host runs `ot.run` with the journal the agent hands the call.
 */
import { FakeHost } from './helpers.ts';
import type { FlowBlock, ToolRunContext } from '../../src/agent/toolHost.ts';
import { defineTool } from '../../src/tools/defineTool.ts';
import type { ToolRegistry } from '../../src/tools/ToolRegistry.ts';
import { runCommandText } from '../../src/tools/packs/ot/program.ts';
import { toolContext } from '../support/toolContext.ts';
import { z } from '../../src/shared/zod.ts';

/** `ot.run` as a step of a program: a program inside the program, with the context the interceptor hands the step. */
export const nestedRunTool = (registry: ToolRegistry) =>
  defineTool({
    pack: 'ot',
    name: 'run',
    description: 'run',
    parameters: z.object({ code: z.string() }),
    effect: 'changes',
    execute: async (a, ctx) => (await runCommandText(a.code, ctx, { registry, label: 'ot.run' })).output,
  });

/** A host whose ot.run runs the real interpreter over `registry`, with the journal the agent hands the call. */
export class ProgramHost extends FakeHost {
  constructor(registry: ToolRegistry) {
    super();
    this.define('ot.run', {
      readOnly: false,
      schema: z.object({ code: z.string() }),
      impl: async (a, run: ToolRunContext) => {
        const ctx = toolContext({ registry, signal: run.signal, ...(run.journal ? { journal: run.journal } : {}) });
        return (await runCommandText(String(a.code), ctx, { registry, label: 'ot.run' })).output;
      },
    });
  }
  async checkFlow(): Promise<FlowBlock | undefined> {
    return undefined; // ot.run itself sends nothing
  }
}
