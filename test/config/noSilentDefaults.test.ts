/**
 * #30: a stored config that does not validate never sends anything anywhere. The model client refuses without a
 * request, chat.send/retry/resume refuse before a run starts, llm.transform refuses, and ot.config / ot.health say
 * what is wrong in the settings editor's words.
 */
import { describe, expect, it, vi } from 'vitest';
import { parseConfigYaml } from '../../src/config/parse.ts';
import { configStatus } from '../../src/config/status.ts';
import { DEFAULT_CONFIG } from '../../src/config/schema.ts';
import { configuredModelClient } from '../../src/background/modelClient.ts';
import { agentHandlers } from '../../src/background/agentHandlers.ts';
import { blockedByConfig, type Settings } from '../../src/background/settings.ts';
import type { AgentRunner } from '../../src/agent/runner.ts';
import type { ConversationStore } from '../../src/storage/conversations.ts';
import { createLlmTools } from '../../src/tools/packs/llm/index.ts';
import { ToolInterceptor } from '../../src/tools/interceptor.ts';
import { Logger } from '../../src/shared/log.ts';
import { otFixture } from '../packs/otSupport.ts';
import { parse } from 'yaml';
import { toolContext } from '../support/toolContext.ts';

const BROKEN = 'agent:\n  base_url: http://127.0.0.1:1234/v1\n  max_turns: many\n  colour: blue\n';
const parsed = parseConfigYaml(BROKEN);
const problems = parsed.ok ? [] : parsed.problems;
const broken: Settings = {
  config: DEFAULT_CONFIG,
  secrets: { OPENAI_API_KEY: 'sk-stored-key-0000000000' },
  problems,
  warnings: parsed.warnings,
  version: 1,
};
const EXPECTED =
  "Otto's configuration does not validate, so nothing was sent. Fix it in Settings:\n" +
  'line 3, column 14: agent.max_turns: should be a number, not text';

describe('a config that does not validate', () => {
  it('parses to an error for the wrong value and a warning naming the unknown key', () => {
    expect(parsed.ok).toBe(false);
    expect(blockedByConfig(broken)).toBe(EXPECTED);
    expect(parsed.warnings.map((w) => w.message)).toEqual([
      'agent.colour: not a setting this version of Otto knows; ignored',
    ]);
  });

  it('the model client fails with kind "config" and makes no request', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    const events = [];
    for await (const e of configuredModelClient(async () => broken).stream({ input: [], tools: [] } as never))
      events.push(e);
    expect(events).toEqual([{ type: 'failed', error: { kind: 'config', message: EXPECTED, retryable: false } }]);
    expect(fetchSpy).not.toHaveBeenCalled();
    fetchSpy.mockRestore();
  });

  it('chat.send, chat.retry and chat.resume refuse before a run starts (no conversation, no message stored)', async () => {
    const runner = { isActive: () => false, send: vi.fn(), retry: vi.fn(), resume: vi.fn() } as unknown as AgentRunner;
    const store = { get: vi.fn(), create: vi.fn() } as unknown as ConversationStore;
    const h = agentHandlers(runner, store, undefined, async () => blockedByConfig(broken));
    await expect(
      Promise.resolve(h['chat.send']({ type: 'chat.send', id: '1', text: 'hi' } as never, {} as never)),
    ).rejects.toThrow(EXPECTED);
    await expect(
      Promise.resolve(h['chat.retry']({ type: 'chat.retry', id: '2', conversationId: 'c' } as never, {} as never)),
    ).rejects.toThrow(EXPECTED);
    await expect(
      Promise.resolve(h['chat.resume']({ type: 'chat.resume', id: '3', conversationId: 'c' } as never, {} as never)),
    ).rejects.toThrow(EXPECTED);
    expect(store.create).not.toHaveBeenCalled();
    expect(runner.send).not.toHaveBeenCalled();
    expect(runner.retry).not.toHaveBeenCalled();
    expect(runner.resume).not.toHaveBeenCalled();
  });

  it('llm.transform refuses, with the problems, and makes no request', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    const logger = new Logger({ capacity: 100 });
    const ctx = toolContext({
      config: {
        ...DEFAULT_CONFIG,
        transform: { ...DEFAULT_CONFIG.transform, base_url: 'http://127.0.0.1:9/v1', model: 'm' },
      },
      configStatus: configStatus(broken as Required<Settings>),
      getSecret: () => 'sk-stored-key-0000000000',
      logger,
    });
    const out = await new ToolInterceptor({ logger }).execute(createLlmTools()[0]!, { input: 'a', prompt: 'b' }, ctx);
    expect(out).toBe(`Error: ${EXPECTED}`);
    expect(fetchSpy).not.toHaveBeenCalled();
    fetchSpy.mockRestore();
  });

  it('ot.config and ot.health say the same: status, version, each problem and warning at its line', async () => {
    const f = otFixture();
    const ctx = { ...f.ctx, configStatus: configStatus(broken as Required<Settings>) };
    const state = {
      status: 'invalid',
      version: 1,
      errors: ['line 3, column 14: agent.max_turns: should be a number, not text'],
      warnings: ['line 4, column 3: agent.colour: not a setting this version of Otto knows; ignored'],
    };
    const tool = (name: string) => f.registry.resolve(name)!;
    const shown = (await f.interceptor.execute(tool('ot.config'), {}, ctx)) as string;
    expect(parse(shown)).toMatchObject({ config: state, aliases: {}, servers: [] });
    const health = (await f.interceptor.execute(tool('ot.health'), {}, ctx)) as string;
    expect(parse(health).config).toEqual(state);
    // A valid config: health says ok; ot.config keeps the spec's shape.
    const ok = { ...f.ctx, configStatus: configStatus({ version: 2, problems: [], warnings: [] }) };
    expect(parse((await f.interceptor.execute(tool('ot.health'), {}, ok)) as string).config).toEqual({
      status: 'ok',
      version: 2,
    });
    expect(parse((await f.interceptor.execute(tool('ot.config'), {}, ok)) as string)).toEqual({
      aliases: {},
      snippets: {},
      servers: [],
    });
  });
});
