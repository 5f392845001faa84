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
  it('asks for one tool call through the client a run uses, and says which wire answered and whether a tool was called', async () => {
    api.reset();
    api.script([{ match: 'otto_ping', calls: [{ name: 'otto_ping', arguments: {} }] }]);
    const r = await testConnection({}, settings('sk-good-key-123456'));
    expect(r).toMatchObject({ ok: true, model: 'gpt-test', transport: 'responses', toolCalled: true });
    expect(r.message).toMatch(
      /^Connected: gpt-test answered at http:\/\/127\.0\.0\.1:\d+\/v1 over the Responses API in \d+ ms\. It called a tool, so tool use works\.$/,
    );
    const [req] = api.responsesRequests();
    expect(req!.body).toMatchObject({ model: 'gpt-test', store: false, stream: true });
    expect(req!.schemaErrors ?? []).toEqual([]);
  });

  it('a chat-only server under auto: Chat Completions answered; a model that calls no tool is flagged', async () => {
    api.reset();
    api.setResponsesAvailable(false);
    api.script([{ match: 'otto_ping', text: 'OK' }]);
    const r = await testConnection({ api: 'auto' }, settings('sk-good-key-123456'));
    api.setResponsesAvailable(true);
    expect(r).toMatchObject({ ok: true, transport: 'chat', toolCalled: false });
    expect(r.message).toContain('over Chat Completions');
    expect(r.message).toContain('It did not call the test tool: this model may not use tools well.');
    expect(api.agentChatRequests()).toHaveLength(1);
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
