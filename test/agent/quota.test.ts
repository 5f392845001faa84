/** Issue 9: a full IndexedDB quota gives a clear error and loses nothing already saved. */
import { afterEach, describe, expect, it } from 'vitest';
import { calls, say } from '../support/scriptedModel.ts';
import { setup, userTexts } from './helpers.ts';
import { STORAGE_FULL_MESSAGE, isQuotaError } from '../../src/agent/runner.ts';

const realAdd = IDBObjectStore.prototype.add;
const realPut = IDBObjectStore.prototype.put;
afterEach(() => {
  IDBObjectStore.prototype.add = realAdd;
  IDBObjectStore.prototype.put = realPut;
});

/** From now on every write to IndexedDB fails as a full disk does. */
function fillTheDisk() {
  const refuse = function (): never {
    throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
  };
  IDBObjectStore.prototype.add = refuse;
  IDBObjectStore.prototype.put = refuse;
}

describe('storage quota', () => {
  it('recognises quota errors however they are wrapped', () => {
    expect(isQuotaError(new DOMException('x', 'QuotaExceededError'))).toBe(true);
    expect(isQuotaError(new Error('Transaction aborted: quota exceeded'))).toBe(true);
    expect(isQuotaError({ inner: new DOMException('x', 'QuotaExceededError') })).toBe(true);
    expect(isQuotaError(new Error('network down'))).toBe(false);
  });

  it('a full quota mid-run ends the run with a clear error, and everything saved before is kept', async () => {
    const h = await setup({ turns: [calls([{ name: 'page__read', callId: 'c1' }]), say('never saved')] });
    // The first response completes and is saved; the disk fills while the tool runs.
    h.host.impl('page.read', () => {
      fillTheDisk();
      return 'page text';
    });
    const state = await h.runner.send(h.conversationId, 'read the page');
    expect(state.status).toBe('error');
    expect(state.lastError).toEqual({ kind: 'storage_full', message: STORAGE_FULL_MESSAGE, retryable: true });
    expect(h.eventsOf('run.status').at(-1)).toMatchObject({ status: 'error', error: { kind: 'storage_full' } });
    IDBObjectStore.prototype.add = realAdd;
    IDBObjectStore.prototype.put = realPut;
    const items = await h.items();
    expect(userTexts(items)).toEqual(['read the page']);
    expect(items.map((i) => i.type)).toEqual(['message', 'function_call']);
  });
});
