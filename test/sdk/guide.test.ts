/**
 * docs/tools/sdk.md "Writing a tool": the guide's example tool, as written there (with the API's base URL pointed
 * at a loopback server), type-checks and behaves as the guide says.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from '../../src/shared/zod.ts';
import { defineTool } from '../../src/tools/defineTool.ts';
import { host, requires, safeRequest, sdk, secret } from '../../src/sdk/index.ts';
import { harness, recordingTool } from './helpers.ts';

let server: Server;
let api = '';

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.headers.authorization !== 'Bearer w-key') {
      res.writeHead(401, { 'content-type': 'text/plain' });
      return res.end('bad key');
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        days: [
          { date: '2025-06-01', text: 'sunny, 14–22 °C' },
          { date: '2025-06-02', text: 'rain' },
        ],
      }),
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  api = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const weather = () =>
  requires(
    secret('WEATHER_API_KEY'),
    host(`${api}/*`),
  )(
    defineTool({
      pack: 'weather',
      name: 'forecast',
      description: 'The forecast for a city.\nThe first line is what ot.tools shows; the rest is for ot.help.',
      parameters: z.object({
        city: z.string().describe('City name'),
        days: z.int().min(1).max(10).default(3).describe('Days ahead'),
      }),
      effect: 'reads',
      examples: ['weather.forecast(city="Lyon", days=2)'],
      returns: 'One line per day: date, low/high, summary',
      async execute({ city, days }, ctx) {
        const { apiHeaders } = sdk(ctx);
        const [ok, data] = await safeRequest<{ days: { date: string; text: string }[] }>(
          `${api}/v1?city=${encodeURIComponent(city)}&days=${days}`,
          { headers: apiHeaders('WEATHER_API_KEY'), signal: ctx.signal },
        );
        if (!ok) throw new Error(data);
        return data.days.map((d) => `${d.date}: ${d.text}`).join('\n');
      },
    }),
  );

describe('the "Writing a tool" example', () => {
  it('runs through the interceptor with defaults applied, its secret as a Bearer header', async () => {
    const h = harness({
      secrets: { WEATHER_API_KEY: 'w-key' },
      register: (r) => r.registerPack({ name: 'weather' }, [weather()]),
    });
    expect(await h.call('weather.forecast', { city: 'Lyon' })).toBe('2025-06-01: sunny, 14–22 °C\n2025-06-02: rain');
    await expect(h.call('weather.forecast', { city: 'Lyon', days: 0 })).rejects.toThrow(/Parameter days/);
  });

  it('without its secret it says so; with a wrong one the HTTP error reaches the caller', async () => {
    const h = harness({ register: (r) => r.registerPack({ name: 'weather' }, [weather()]) });
    await expect(h.call('weather.forecast', { city: 'Lyon' })).rejects.toThrow(
      'weather.forecast cannot run: the secret WEATHER_API_KEY is not set. Add WEATHER_API_KEY in Settings → Secrets, then run ot.reload()',
    );
    h.secrets.WEATHER_API_KEY = 'wrong';
    await expect(h.call('weather.forecast', { city: 'Lyon' })).rejects.toThrow('HTTP error (401): bad key');
  });

  it('getPack with named functions is typed; another pack is called with the caller context', async () => {
    const seen: unknown[] = [];
    const h = harness({
      secrets: { WEATHER_API_KEY: 'w-key' },
      register: (r) => {
        r.registerPack({ name: 'weather' }, [weather()]);
        r.registerPack({ name: 'llm' }, [recordingTool('llm', 'transform', seen)]);
      },
    });
    const { getPack, callTool } = sdk(h.ctx);
    const page = String(await callTool('weather.forecast', { city: 'Lyon', days: 2 }));
    const llm = getPack<'transform'>('llm');
    expect(await llm?.transform({ input: page, prompt: 'Three bullet points' })).toBe(`Three bullet points: ${page}`);
  });
});
