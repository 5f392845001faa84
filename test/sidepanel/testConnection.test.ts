import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConnection } from '../../src/background/settingsHandlers.ts';
import { DEFAULT_CONFIG } from '../../src/config/schema.ts';
import { startFakeApi, type FakeApi } from '../support/fake-api/index.ts';
import type { Settings } from '../../src/background/settings.ts';

let api: FakeApi;
beforeAll(async () => {
  api = await startFakeApi({ fallback: 'error' });
});
afterAll(async () => api.close());

const settings = (key?: string, baseUrl = api.url): Settings => ({
  config: { ...DEFAULT_CONFIG, agent: { ...DEFAULT_CONFIG.agent, base_url: baseUrl, model: 'gpt-test' } },
  secrets: key ? { OPENAI_API_KEY: key } : {},
});

describe('testConnection (settings.test)', () => {
  it('makes one small non-streamed request and reports success', async () => {
    api.reset();
    api.script([{ match: 'Reply with OK', text: 'OK' }]);
    const r = await testConnection({}, settings('sk-good-key-123456'));
    expect(r).toMatchObject({ ok: true, model: 'gpt-test' });
    expect(r.message).toMatch(/^Connected: gpt-test answered at http:\/\/127\.0\.0\.1:\d+\/v1 in \d+ ms\.$/);
    const [req] = api.responsesRequests();
    expect(req!.body).toMatchObject({ model: 'gpt-test', max_output_tokens: 16, store: false });
    expect(req!.body?.stream).toBeFalsy();
    expect(req!.schemaErrors ?? []).toEqual([]);
  });

  it('reports a rejected key exactly, without the key (the server echoes it)', async () => {
    api.reset();
    api.setExpectedKey('sk-right-key-999999');
    const typed = 'sk-typed-wrong-key-000000';
    const r = await testConnection({ apiKey: typed }, settings('sk-stored-key-111111'));
    api.setExpectedKey(undefined);
    expect(r).toMatchObject({ ok: false, kind: 'auth', status: 401 });
    expect(r.message).toContain('The API key was rejected (401)');
    expect(JSON.stringify(r)).not.toContain(typed);
    expect(api.requests.at(-1)!.headers.authorization).toBe(`Bearer ${typed}`);
  });

  it('needs no request to know a key is missing for OpenAI, and names a bad URL', async () => {
    const before = api.requests.length;
    const noKey = await testConnection({}, settings(undefined, 'https://api.openai.com/v1'));
    expect(noKey).toMatchObject({ ok: false, kind: 'auth' });
    expect(noKey.message).toMatch(/No API key is set/);
    const bad = await testConnection({ baseUrl: 'ftp://x' }, settings('sk-a-key-123456'));
    expect(bad.message).toMatch(/is not an http\(s\) URL/);
    expect(api.requests.length).toBe(before);
  });

  it('reports a connection failure naming the URL', async () => {
    const r = await testConnection({ baseUrl: 'http://127.0.0.1:9/v1' }, settings('sk-a-key-123456'));
    expect(r).toMatchObject({ ok: false, kind: 'network' });
    expect(r.message).toContain('Could not connect to http://127.0.0.1:9/v1');
  });
});
