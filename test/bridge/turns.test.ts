import { describe, expect, it } from 'vitest';
import { setup } from '../agent/helpers.ts';
import { BridgeTurns, statsModelName, toMcpContent } from '../../src/bridge/turns.ts';

/** One MCP call through a runner whose model is the client: the panel run's own path. */
async function bridged() {
  const h = await setup();
  const turns = new BridgeTurns('Claude Code');
  const runner = h.newRunner({ model: turns });
  return { h, turns, runner };
}

describe('BridgeTurns: an MCP call is one run whose model is the client', () => {
  it('runs the call through the loop and hands its output back; the run completes and the transcript holds it', async () => {
    const { h, turns, runner } = await bridged();
    const out = turns.expect({ callId: 'call_1', name: 'web__echo', argumentsText: '{"text":"hi"}' });
    const state = await runner.send(h.conversationId, 'Claude Code called web.echo');
    expect(state.status).toBe('completed');
    const r = await out;
    expect(r.isError).toBe(false);
    expect(JSON.parse(r.content[0]!.type === 'text' ? r.content[0]!.text : '')).toMatchObject({ echo: 'hi' });
    expect(h.host.count('web.echo')).toBe(1);
    const items = await h.items();
    expect(items.map((i) => i.type)).toEqual(['message', 'function_call', 'function_call_output']);
    // Counted as one request of the client's "model" (no tokens), not two.
    const usage = h.eventsOf('turn.completed').filter((e) => e.usage);
    expect(usage.map((e) => e.model)).toEqual([statsModelName('Claude Code')]);
    expect(statsModelName('Claude Code')).toBe('MCP: Claude Code');
  });

  it('a destructive call waits for the approval; approved, the client is told the user approved it', async () => {
    const { h, turns, runner } = await bridged();
    const out = turns.expect({ callId: 'call_2', name: 'dom__click', argumentsText: '{"ref":"e1"}' });
    const paused = await runner.send(h.conversationId, 'Claude Code called dom.click');
    expect(paused.status).toBe('awaiting_approval');
    expect(h.host.count('dom.click')).toBe(0);
    expect(turns.waiting).toBe(true);
    await runner.approve(h.conversationId, 'call_2', 'once');
    const r = await out;
    expect(r).toEqual({
      content: [{ type: 'text', text: '[The user approved this call.]\nclicked e1' }],
      isError: false,
    });
  });

  it('denied, the client gets the error saying so and nothing ran', async () => {
    const { h, turns, runner } = await bridged();
    const out = turns.expect({ callId: 'call_3', name: 'dom__click', argumentsText: '{"ref":"e1"}' });
    await runner.send(h.conversationId, 'Claude Code called dom.click');
    await runner.deny(h.conversationId, 'call_3');
    const r = await out;
    expect(r.isError).toBe(true);
    expect(r.content[0]).toMatchObject({ type: 'text' });
    expect((r.content[0] as { text: string }).text).toMatch(/^Error: the user denied dom\.click/);
    expect(h.host.count('dom.click')).toBe(0);
  });

  it('invalid arguments come back as the interceptor-style error the model would read', async () => {
    const { h, turns, runner } = await bridged();
    const out = turns.expect({ callId: 'call_4', name: 'web__echo', argumentsText: '{"text":5}' });
    await runner.send(h.conversationId, 'x');
    const r = await out;
    expect(r.isError).toBe(true);
    expect((r.content[0] as { text: string }).text).toContain('Invalid arguments for web.echo');
  });

  it('fail() answers a waiting call when the run ends without its output', async () => {
    const turns = new BridgeTurns('A');
    const out = turns.expect({ callId: 'c', name: 'x', argumentsText: '{}' });
    turns.fail("the user stopped this call in Otto's side panel.");
    expect(await out).toEqual({
      content: [{ type: 'text', text: "Error: the user stopped this call in Otto's side panel." }],
      isError: true,
    });
    expect(turns.waiting).toBe(false);
  });
});

describe('toMcpContent', () => {
  it('maps text and image parts; an Error: text is an error', () => {
    expect(toMcpContent('Error: nope')).toEqual({ content: [{ type: 'text', text: 'Error: nope' }], isError: true });
    expect(
      toMcpContent([
        { type: 'input_text', text: 'shot' },
        { type: 'input_image', image_url: 'data:image/png;base64,AAAA', detail: 'auto' },
      ]),
    ).toEqual({
      content: [
        { type: 'text', text: 'shot' },
        { type: 'image', mimeType: 'image/png', data: 'AAAA' },
      ],
      isError: false,
    });
  });
});
