/** docs/specs/004-tool-sdk.md "API Headers" and "Lazy Client Factory" (concurrency included). */
import { describe, expect, it } from 'vitest';
import { apiHeaders, lazyClient } from '../../src/sdk/index.ts';

const source = (secrets: Record<string, string>) => ({ getSecret: (n: string) => secrets[n] });
const tick = () => new Promise((r) => setTimeout(r, 1));

describe('Requirement: API Headers', () => {
  it('Scenario: Bearer token header — {Authorization: "Bearer <value>"}', () => {
    expect(apiHeaders(source({ MY_API_KEY: 'abc123' }), 'MY_API_KEY')).toEqual({ Authorization: 'Bearer abc123' });
  });

  it('Scenario: Custom header name — header_name and an empty prefix give the bare value', () => {
    expect(
      apiHeaders(source({ BRAVE_API_KEY: 'BSA-1' }), 'BRAVE_API_KEY', {
        headerName: 'X-Subscription-Token',
        prefix: '',
      }),
    ).toEqual({ 'X-Subscription-Token': 'BSA-1' });
  });

  it('Scenario: Missing secret — an empty object', () => {
    expect(apiHeaders(source({}), 'MISSING_KEY')).toEqual({});
    expect(apiHeaders(source({ EMPTY: '' }), 'EMPTY')).toEqual({});
  });

  it('extra headers join the auth header (only when the secret exists)', () => {
    expect(apiHeaders(source({ K: 'v' }), 'K', { extra: { Accept: 'application/json' } })).toEqual({
      Accept: 'application/json',
      Authorization: 'Bearer v',
    });
    expect(apiHeaders(source({}), 'K', { extra: { Accept: 'application/json' } })).toEqual({});
  });
});

describe('Requirement: Lazy Client Factory', () => {
  it('Scenario: Create lazy getter — nothing is created until the first call', async () => {
    let made = 0;
    const get = lazyClient(() => ({ id: ++made }));
    expect(made).toBe(0);
    expect(await get()).toEqual({ id: 1 });
    expect(await get()).toEqual({ id: 1 });
    expect(get.created).toBe(1);
  });

  it('Scenario: Thread-safe initialization — 100 concurrent callers, factory called exactly once, same instance', async () => {
    let calls = 0;
    const get = lazyClient(async () => {
      calls++;
      await tick(); // a slow client: every caller arrives while it is being made
      return { instance: Symbol('client') };
    });
    const clients = await Promise.all(Array.from({ length: 100 }, () => get()));
    expect(calls).toBe(1);
    expect(new Set(clients).size).toBe(1);
  });

  it('Scenario: Conditional initialization with secret — undefined without the secret, factory not called', async () => {
    let calls = 0;
    const get = lazyClient((key) => ({ key, n: ++calls }), { secretName: 'API_KEY' });
    expect(await get(source({}))).toBeUndefined();
    expect(calls).toBe(0);
    expect(await get(source({ API_KEY: 'k1' }))).toEqual({ key: 'k1', n: 1 });
  });

  it('concurrent callers with the secret share one creation; a changed secret makes a new client', async () => {
    let calls = 0;
    const get = lazyClient(
      async (key) => {
        calls++;
        await tick();
        return { key };
      },
      { secretName: 'API_KEY' },
    );
    const first = await Promise.all(Array.from({ length: 20 }, () => get(source({ API_KEY: 'k1' }))));
    expect(calls).toBe(1);
    expect(new Set(first).size).toBe(1);
    const rotated = await get(source({ API_KEY: 'k2' }));
    expect(rotated).toEqual({ key: 'k2' });
    expect(calls).toBe(2);
  });

  it('a failing factory is forgotten: concurrent waiters all see the error, the next call retries', async () => {
    let calls = 0;
    const get = lazyClient(async () => {
      calls++;
      await tick();
      if (calls === 1) throw new Error('network down');
      return 'client';
    });
    const results = await Promise.allSettled([get(), get(), get()]);
    expect(results.every((r) => r.status === 'rejected')).toBe(true);
    expect(calls).toBe(1);
    expect(await get()).toBe('client');
    expect(calls).toBe(2);
  });

  it('reset() forgets the client; a secret-gated getter needs a source', async () => {
    let calls = 0;
    const get = lazyClient(() => ++calls);
    await get();
    get.reset();
    expect(await get()).toBe(2);
    const gated = lazyClient(() => 1, { secretName: 'X' });
    await expect(gated()).rejects.toThrow(TypeError);
  });
});
