import { describe, expect, it } from 'vitest';
import { calls, say } from '../support/scriptedModel.ts';
import { expectValidTranscript, outputOf, setup } from './helpers.ts';
import { z } from '../../src/shared/zod.ts';
import { deniedShareOutput, shareQuestion, type TabAccess, type TabShareRequest } from '../../src/agent/tabAccess.ts';

const BANK: TabShareRequest = {
  tabId: 7,
  title: 'Accounts — Example Bank',
  host: 'bank.example',
  origin: 'https://bank.example',
};

/** Tabs 1 (the run's) and anything shared are in reach; tab 7 is the user's bank. */
class FakeAccess implements TabAccess {
  readonly shared = new Set([1]);
  readonly shares: [number, string][] = [];
  async check(_c: string, _name: string, args: unknown): Promise<TabShareRequest | undefined> {
    const id = (args as { tab_id?: number }).tab_id ?? 1;
    return this.shared.has(id) ? undefined : { ...BANK, tabId: id };
  }
  async share(_c: string, tabId: number, scope: 'once' | 'site'): Promise<void> {
    this.shares.push([tabId, scope]);
    this.shared.add(tabId);
  }
}

async function harness(turns: NonNullable<Parameters<typeof setup>[0]>['turns'], access = new FakeAccess()) {
  const h = await setup({ turns, runner: { tabs: access } });
  h.host.define('dom.text', {
    readOnly: true,
    schema: z.object({ tab_id: z.number().optional() }),
    impl: (a) => `text of ${String(a.tab_id ?? 1)}`,
  });
  return { h, access };
}

describe('tab scope in the run loop (#27)', () => {
  it('the question names the tab; the denial names only the id the model sent', () => {
    expect(shareQuestion(BANK)).toBe("Share 'Accounts — Example Bank' (bank.example) with Otto?");
    expect(shareQuestion({ tabId: 3, title: '', host: '' })).toBe("Share 'Untitled tab' with Otto?");
    expect(deniedShareOutput(BANK)).not.toMatch(/Bank|bank\.example/);
  });

  it('a call on a tab outside the group pauses for a share approval; approved, the tab is shared and the call runs', async () => {
    const { h, access } = await harness([
      calls([
        { name: 'dom__text', args: {}, callId: 'mine' },
        { name: 'dom__text', args: { tab_id: 7 }, callId: 'bank' },
      ]),
      say('Read both.'),
    ]);
    const paused = await h.runner.send(h.conversationId, 'compare');
    expect(paused.status).toBe('awaiting_approval');
    expect(paused.approval).toMatchObject({ callId: 'bank', name: 'dom.text', share: BANK, origin: BANK.origin });
    expect(h.host.count('dom.text')).toBe(1); // the run's own tab needed no question

    const done = await h.runner.approve(h.conversationId, 'bank', 'site');
    expect(done.status).toBe('completed');
    expect(access.shares).toEqual([[7, 'site']]);
    const items = await h.items();
    expect(outputOf(items, 'bank')).toBe('text of 7');
    expect(await h.sites.isAllowed(BANK.origin)).toBe(false); // sharing is not allowing destructive actions
    expectValidTranscript(items);
  });

  it('denied, the tool never runs and the model is told the tab was not shared', async () => {
    const { h } = await harness([calls([{ name: 'dom__text', args: { tab_id: 7 }, callId: 'bank' }]), say('OK.')]);
    await h.runner.send(h.conversationId, 'peek');
    const done = await h.runner.deny(h.conversationId, 'bank');
    expect(done.status).toBe('completed');
    expect(h.host.count('dom.text')).toBe(0);
    expect(outputOf(await h.items(), 'bank')).toBe(deniedShareOutput(BANK));
    expect(JSON.stringify(h.model.requests)).not.toContain('Example Bank');
  });

  it('a shared tab still meets the destructive-action approval', async () => {
    const { h } = await harness([
      calls([{ name: 'dom__click', args: { ref: 'e1', tab_id: 7 }, callId: 'c' }]),
      say('Clicked.'),
    ]);
    h.host.define('dom.click', {
      readOnly: false,
      schema: z.object({ ref: z.string(), tab_id: z.number().optional() }),
      destructive: () => true,
      impl: () => 'clicked',
    });
    const first = await h.runner.send(h.conversationId, 'click it');
    expect(first.approval?.share).toEqual(BANK);
    const second = await h.runner.approve(h.conversationId, 'c', 'once');
    expect(second.status).toBe('awaiting_approval');
    expect(second.approval?.share).toBeUndefined();
    expect((await h.runner.approve(h.conversationId, 'c', 'once')).status).toBe('completed');
    expect(h.host.count('dom.click')).toBe(1);
  });

  it('a share approval survives a worker restart: a new runner resumes and answers it', async () => {
    const { h, access } = await harness([
      calls([{ name: 'dom__text', args: { tab_id: 7 }, callId: 'bank' }]),
      say('Read it.'),
    ]);
    await h.runner.send(h.conversationId, 'peek');
    const fresh = h.newRunner({ tabs: access });
    const resumed = await fresh.resume(h.conversationId);
    expect(resumed.approval?.share).toEqual(BANK);
    expect((await fresh.approve(h.conversationId, 'bank', 'once')).status).toBe('completed');
    expect(outputOf(await h.items(), 'bank')).toBe('text of 7');
  });
});
