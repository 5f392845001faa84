/**
 * Security suite, fuzzing (issue 9): 10,000 generated cases per boundary. Nothing a page, a server or a model can
 * send makes these throw anything but their own clear errors, and no valid state is lost.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { PanelRequest, WorkerToPanel, parseMessage } from '../../src/shared/messages.ts';
import { ContentReply, ContentRequest } from '../../src/shared/contentMessages.ts';
import { acceptPanelPort, type Handlers, type PortLike } from '../../src/background/panelPort.ts';
import { parseConfigYaml, parseSecretsYaml } from '../../src/config/parse.ts';
import { loadConfig, saveConfig } from '../../src/config/configStore.ts';
import { runProgram, CommandError } from '../../src/command/index.ts';
import { ToolInterceptor } from '../../src/tools/interceptor.ts';
import { ToolValidationError } from '../../src/tools/validate.ts';
import { defineTool } from '../../src/tools/defineTool.ts';
import { Logger } from '../../src/shared/log.ts';
import { z } from '../../src/shared/zod.ts';
import { StreamMapper } from '../../src/models/streamMapper.ts';
import { SseDecoder } from '../../src/models/sse.ts';
import { toolContext } from '../support/toolContext.ts';

const RUNS = 10_000;
const anyJson = fc.anything({
  maxDepth: 4,
  withNullPrototype: true,
  withBigInt: true,
  withDate: true,
  withMap: true,
  withSet: true,
});
/** Values shaped like our messages: real type names, plausible and implausible fields. */
const messageLike = fc.record(
  {
    type: fc.constantFrom(
      'ping',
      'echo',
      'config.save',
      'chat.send',
      'chat.approve',
      'frames.ping',
      'dom.click',
      'content.ping',
      'result',
      'x',
    ),
    id: fc.oneof(fc.string(), fc.integer(), fc.constant(undefined)),
    text: fc.oneof(fc.string(), fc.integer()),
    yaml: fc.oneof(fc.string(), fc.object()),
    tabId: fc.oneof(fc.integer(), fc.string(), fc.double()),
    conversationId: fc.oneof(fc.string(), fc.constant(null)),
    ok: fc.boolean(),
  },
  { requiredKeys: [] },
);

describe('fuzz: message schemas at every boundary', () => {
  it('panel, worker and content schemas answer ok/error for anything, never throw', () => {
    fc.assert(
      fc.property(fc.oneof(anyJson, messageLike), (raw) => {
        for (const schema of [PanelRequest, WorkerToPanel, ContentRequest, ContentReply] as const) {
          const r = parseMessage(schema as never, raw);
          expect(typeof r.ok).toBe('boolean');
          if (!r.ok) expect((r as { error: string }).error).toMatch(/^invalid message/);
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('the panel port acts on valid requests only, once each', async () => {
    let acted = 0;
    const handlers = new Proxy({} as Handlers, { get: () => () => (acted++, 'done') });
    const posted: unknown[] = [];
    let listener: (m: unknown) => void = () => undefined;
    const port: PortLike = {
      name: 'otto-panel',
      sender: { id: 'self', url: 'chrome-extension://self/src/sidepanel/index.html' },
      postMessage: (m) => posted.push(m),
      disconnect: () => undefined,
      onMessage: { addListener: (cb) => (listener = cb) },
      onDisconnect: { addListener: () => undefined },
    };
    acceptPanelPort(port, 'self', handlers, { type: 'hello', version: '0', startedAt: 0 });
    await fc.assert(
      fc.asyncProperty(fc.oneof(anyJson, messageLike), async (raw) => {
        const before = acted;
        posted.length = 0;
        listener(raw);
        await new Promise((r) => setImmediate(r));
        const valid = PanelRequest.safeParse(raw).success;
        expect(acted - before).toBe(valid ? 1 : 0);
      }),
      { numRuns: RUNS },
    );
  }, 120_000);
});

describe('fuzz: config YAML', () => {
  const yamlish = fc
    .array(
      fc.oneof(
        fc.constantFrom(
          'agent:',
          '  model: x',
          '  max_turns: 3',
          'approvals: {policy: ask}',
          '- a',
          ': :',
          '{',
          '[',
          '"',
          "'",
          '\t',
          '&a',
          '*a',
          '!!str',
          '---',
          '...',
          '#c',
          'servers:',
          '  s: {url: 1}',
        ),
        fc.string(),
      ),
      { maxLength: 8 },
    )
    .map((lines) => lines.join('\n'));

  it('any text parses to a config or to problems with a line and column, never a throw', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), yamlish), (text) => {
        for (const parse of [parseConfigYaml, parseSecretsYaml]) {
          const r = parse(text);
          if (!r.ok) for (const p of r.problems) expect(p.line).toBeGreaterThanOrEqual(1);
        }
      }),
      { numRuns: RUNS },
    );
  }, 60_000); // 10,000 parses: ~10 s alone, twice that with the whole suite on a loaded machine

  it('saving any text never replaces a valid config with an invalid one', async () => {
    const data: Record<string, unknown> = {};
    const storage = {
      get: async (k: string) => (k in data ? { [k]: data[k] } : {}),
      set: async (items: Record<string, unknown>) => void Object.assign(data, items),
    } as unknown as chrome.storage.LocalStorageArea;
    await saveConfig('agent: {model: safe-model}\n', storage);
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string(), yamlish), async (text) => {
        const out = await saveConfig(text, storage);
        const loaded = await loadConfig(storage);
        expect(loaded.problems).toEqual([]);
        if (!out.ok) expect(loaded.config.agent.model).toBeTypeOf('string');
        await saveConfig('agent: {model: safe-model}\n', storage);
      }),
      { numRuns: 2_000 },
    );
  });
});

describe('fuzz: the command language', () => {
  it('any program either runs or fails with a CommandError naming where', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string(), fc.stringMatching(/^[a-z_.()=, "'[\]{}0-9\n-]{0,40}$/)), async (src) => {
        try {
          await runProgram(src, { call: async () => 'ok' });
        } catch (e) {
          expect(e).toBeInstanceOf(CommandError);
        }
      }),
      { numRuns: RUNS },
    );
  }, 120_000);
});

describe('fuzz: tool arguments through the interceptor', () => {
  const tool = defineTool({
    pack: 'fz',
    name: 'tool',
    description: 'fuzz target',
    parameters: z.object({
      ref: z.string(),
      count: z.number().int().default(1),
      tags: z.array(z.string()).optional(),
      deep: z.object({ on: z.boolean() }).optional(),
    }),
    effect: 'reads',
    execute: (a) => ({ got: a.ref.length + a.count }),
  });
  const interceptor = new ToolInterceptor({ logger: new Logger({ console: false }) });
  const ctx = toolContext({ logger: new Logger({ console: false }), callTool: async () => undefined });

  it('any arguments either run or are refused with a validation error; the tool never sees invalid input', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          anyJson,
          fc.record(
            { ref: fc.anything(), count: fc.anything(), tags: fc.anything(), deep: fc.anything() },
            { requiredKeys: [] },
          ),
        ),
        async (args) => {
          try {
            const r = (await interceptor.execute(tool, args, ctx)) as { got: number };
            expect(typeof r.got).toBe('number');
          } catch (e) {
            expect(e).toBeInstanceOf(ToolValidationError);
          }
        },
      ),
      { numRuns: RUNS },
    );
  });
});

describe('fuzz: SSE framing and stream events', () => {
  const eventLike = fc.record(
    {
      type: fc.constantFrom(
        'response.created',
        'response.output_item.added',
        'response.output_text.delta',
        'response.function_call_arguments.delta',
        'response.function_call_arguments.done',
        'response.output_item.done',
        'response.completed',
        'response.failed',
        'error',
        'response.unknown',
      ),
      item: fc.oneof(
        fc.record(
          {
            type: fc.constantFrom('message', 'function_call', 'reasoning'),
            id: fc.string(),
            call_id: fc.string(),
            name: fc.string(),
            arguments: fc.string(),
          },
          { requiredKeys: [] },
        ),
        anyJson,
      ),
      item_id: fc.oneof(fc.string(), fc.integer()),
      delta: fc.oneof(fc.string(), anyJson),
      response: fc.oneof(
        fc.record(
          { id: fc.string(), usage: anyJson, output: fc.array(anyJson, { maxLength: 3 }) },
          { requiredKeys: [] },
        ),
        anyJson,
      ),
      error: anyJson,
      sequence_number: fc.integer(),
    },
    { requiredKeys: ['type'] },
  );

  it('the stream mapper takes any sequence of events and ends with a terminal event, never a throw', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(eventLike, anyJson), { maxLength: 12 }), (events) => {
        const mapper = new StreamMapper();
        const out = events.flatMap((e) => mapper.push(e));
        const end = mapper.end();
        const all = [...out, ...end];
        // A stream always ends in completed or failed (a cut stream is failed: stream_cut).
        expect(all.some((e) => e.type === 'completed' || e.type === 'failed')).toBe(true);
      }),
      { numRuns: RUNS },
    );
  });

  it('the SSE decoder takes any bytes in any chunking', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.string(),
            fc.constantFrom(
              'event: x\n',
              'data: {"a":1}\n\n',
              'data: [DONE]\n\n',
              '\r\n',
              ':comment\n',
              'data:',
              '\n\n',
            ),
          ),
          { maxLength: 20 },
        ),
        (chunks) => {
          const decoder = new SseDecoder();
          for (const c of chunks) for (const m of decoder.push(c)) expect(typeof m.data).toBe('string');
        },
      ),
      { numRuns: RUNS },
    );
  });
});
