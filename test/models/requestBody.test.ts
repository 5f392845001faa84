// The request body rules and the config → client options mapping, without a server.
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { DEFAULT_CONFIG } from '../../src/config/schema.ts';
import { clientOptionsFromConfig } from '../../src/models/fromConfig.ts';
import { buildRequestBody, isReasoningModel, type RequestSettings } from '../../src/models/requestBody.ts';

const settings: RequestSettings = { model: 'gpt-4.1-mini', parallelToolCalls: false, store: false };
const input = [{ type: 'message', role: 'user', content: 'hi' }];
const tool = { type: 'function', function: { name: 'ot_help', description: 'Help' } };

let warn: MockInstance;
beforeEach(() => {
  warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});
afterEach(() => warn.mockRestore());

describe('buildRequestBody', () => {
  it('omits tool_choice and parallel_tool_calls when there are no tools', () => {
    expect(buildRequestBody(settings, { input, tools: [] })).toEqual({
      model: 'gpt-4.1-mini',
      input,
      store: false,
      stream: true,
    });
  });

  it('sends tools with tool_choice auto and the configured parallelism', () => {
    expect(buildRequestBody(settings, { input, tools: [tool] })).toMatchObject({
      tool_choice: 'auto',
      parallel_tool_calls: false,
      tools: [{ name: 'ot_help' }],
    });
  });

  it("prefers the request's instructions over the configured ones, and drops empty ones", () => {
    expect(
      buildRequestBody({ ...settings, instructions: 'config' }, { input, tools: [], instructions: 'request' })
        .instructions,
    ).toBe('request');
    expect(buildRequestBody({ ...settings, instructions: '' }, { input, tools: [] })).not.toHaveProperty(
      'instructions',
    );
  });

  it('asks for encrypted reasoning only for reasoning models under store:false', () => {
    expect(buildRequestBody({ ...settings, model: 'gpt-5-mini' }, { input, tools: [] }).include).toEqual([
      'reasoning.encrypted_content',
    ]);
    expect(
      buildRequestBody({ ...settings, model: 'gpt-5-mini', store: true }, { input, tools: [] }),
    ).not.toHaveProperty('include');
    expect(
      buildRequestBody({ ...settings, model: 'my-local-model', reasoningModel: true }, { input, tools: [] }).include,
    ).toBeDefined();
    expect(
      buildRequestBody({ ...settings, model: 'o3', reasoningEffort: 'high' }, { input, tools: [] }).reasoning,
    ).toEqual({ effort: 'high', summary: 'auto' });
  });

  it('keeps hosted tools out unless configured', () => {
    expect(buildRequestBody(settings, { input, tools: [{ type: 'web_search' }] })).not.toHaveProperty('tools');
    expect(warn).toHaveBeenCalledOnce();
    const body = buildRequestBody(
      { ...settings, hostedTools: [{ type: 'web_search', search_context_size: 'low' }] },
      { input, tools: [tool] },
    );
    expect(body.tools).toEqual([
      expect.objectContaining({ name: 'ot_help' }),
      { type: 'web_search', search_context_size: 'low' },
    ]);
  });
});

describe('isReasoningModel', () => {
  it('recognises OpenAI reasoning families, with router prefixes', () => {
    for (const model of [
      'o1',
      'o3-mini',
      'o4-mini',
      'gpt-5',
      'gpt-5.1-codex-max',
      'openai/gpt-5-mini',
      'codex-mini-latest',
    ])
      expect(isReasoningModel(model)).toBe(true);
    for (const model of ['gpt-4o', 'gpt-4.1-mini', 'llama-3.1-8b', 'qwen/qwen3-4b'])
      expect(isReasoningModel(model)).toBe(false);
  });
});

describe('clientOptionsFromConfig', () => {
  it('maps the agent config (seconds → ms) and the key', () => {
    const options = clientOptionsFromConfig(
      { ...DEFAULT_CONFIG.agent, reasoning_effort: 'low' },
      { OPENAI_API_KEY: 'sk-abc-123456' },
    );
    expect(options).toMatchObject({
      baseURL: DEFAULT_CONFIG.agent.base_url,
      apiKey: 'sk-abc-123456',
      model: DEFAULT_CONFIG.agent.model,
      store: false,
      reasoningEffort: 'low',
      timeoutMs: DEFAULT_CONFIG.agent.request_timeout * 1000,
      maxRetries: DEFAULT_CONFIG.agent.max_retries,
    });
    expect(clientOptionsFromConfig(DEFAULT_CONFIG.agent, {}).apiKey).toBe('');
  });
});
