/**
 * Runaway programs (issue 34): a snippet that starts itself through ot.run stops at the nesting limit with one clear
 * message; a run stops at its step budget; Cancel ends a run within a second even when a tool ignores its signal;
 * and a long run yields, so the worker answers other messages while it runs.
 */
import { describe, expect, it } from 'vitest';
import { z } from '../../src/shared/zod.ts';
import { CommandError, MAX_NESTING, newBudget, runProgram } from '../../src/command/index.ts';
import { runCommandText } from '../../src/tools/packs/ot/index.ts';
import { otFixture, tool } from './otSupport.ts';
import { expectUserWords } from '../fuzz/support/fuzz.ts';

async function failure(run: Promise<unknown>): Promise<CommandError> {
  const error = await run.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CommandError);
  return error as CommandError;
}

describe('runaway programs', () => {
  it('a snippet that calls itself through ot.run stops at the nesting limit, said once, in plain words', async () => {
    const f = otFixture({ snippets: { loop: { body: 'ot.run(code="$loop")' } } });
    const started = performance.now();
    const error = await failure(runCommandText('$loop', f.ctx, { registry: f.registry }));
    expect(performance.now() - started).toBeLessThan(2000);
    expect(error.kind).toBe('limit');
    expect(error.message).toBe(
      `stopped: programs nested more than ${MAX_NESTING} deep ($loop → ot.run: $loop → ot.run: $loop → ot.run: $loop → …). A snippet or ot.run program that starts itself never ends: remove the call that starts it again.`,
    );
    expectUserWords(error.message);
  });

  it('the same loop started by the model (ot.run) stops the same way', async () => {
    const f = otFixture({ snippets: { loop: { body: 'ot.run(code="$loop")' } } });
    const error = await f.call('ot.run', { code: '$loop' }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toMatch(/^stopped: programs nested more than 8 deep \(ot\.run: \$loop → ot\.run: \$loop/);
  });

  it('a snippet that starts itself twice per level stops too (nesting, not 2^n calls)', async () => {
    const f = otFixture({ snippets: { fan: { body: 'ot.run(code="$fan")\not.run(code="$fan")' } } });
    const error = await failure(runCommandText('$fan', f.ctx, { registry: f.registry }));
    expect(error.kind).toBe('limit');
  });

  it('a run stops at its tool-call budget with the limit in words', async () => {
    const error = await failure(
      runProgram('a = p.x()\nb = p.x()\nc = p.x()', { call: async () => 1, budget: newBudget(2) }),
    );
    expect(error.kind).toBe('limit');
    expect(error.message).toBe(
      'stopped after 2 tool calls in one run (nested snippets and ot.run programs included). Does a snippet or program start itself? Remove that call, or split the work into smaller runs.',
    );
  });

  it('Cancel ends a run within a second even when the tool ignores its signal', async () => {
    const f = otFixture();
    f.registry.registerPack({ name: 'slow' }, [
      tool('slow', 'wait', 'Never finishes', {
        parameters: z.object({}),
        execute: () => new Promise(() => undefined),
      } as never),
    ]);
    const abort = new AbortController();
    const ctx = { ...f.ctx, signal: abort.signal };
    const run = runCommandText('slow.wait()', ctx, { registry: f.registry });
    setTimeout(() => abort.abort(new Error('cancelled')), 50);
    const started = performance.now();
    const error = await failure(run);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(error.kind).toBe('aborted');
  });

  it('a long run yields to the event loop: a timer fires while it runs, and Cancel stops it', async () => {
    const abort = new AbortController();
    let calls = 0;
    let timerFiredAt = -1;
    setTimeout(() => {
      timerFiredAt = calls;
      abort.abort(new Error('cancelled'));
    }, 5);
    // 5,000 calls that resolve at once (microtasks only): without yielding, no timer could fire until the end.
    const source = Array.from({ length: 5000 }, (_, i) => `v${i} = p.x()`).join('\n');
    const error = await failure(
      runProgram(source, {
        call: async () => {
          calls++;
          // Some synchronous work per call, as a real tool has.
          const until = performance.now() + 0.05;
          while (performance.now() < until);
          return 1;
        },
        signal: abort.signal,
      }),
    );
    expect(error.kind).toBe('aborted');
    expect(timerFiredAt).toBeGreaterThan(-1);
    expect(calls).toBeLessThan(5000);
  });
});
