/**
 * The outside agent as Otto's "model" (#29). Each MCP call becomes one run of the session's conversation: the
 * first turn of that run answers with exactly the function call the client asked for, so the call takes the panel
 * run's own path — the loop's approvals, tab scope, data-flow guard, large results by handle, persistence, and live
 * tool cards — and the next turn hands the call's output back to the client and ends the run.
 */
import type { ModelClient, ModelEvent, ModelRequest } from '../models/events.ts';
import type { BridgeContent } from '../shared/bridgeProtocol.ts';

export interface BridgeCall {
  callId: string;
  /** The wire name (`dom__snapshot`), as the loop resolves a model's call. */
  name: string;
  argumentsText: string;
}

export interface BridgeOutput {
  content: BridgeContent[];
  isError: boolean;
}

/** A function_call_output's `output` (text, or content parts) as MCP content. */
export function toMcpContent(output: unknown): BridgeOutput {
  if (typeof output === 'string')
    return { content: [{ type: 'text', text: output }], isError: output.startsWith('Error:') };
  const content: BridgeContent[] = [];
  if (Array.isArray(output)) {
    for (const p of output as { type?: string; text?: string; image_url?: string }[]) {
      if (p?.type === 'input_text' && typeof p.text === 'string') content.push({ type: 'text', text: p.text });
      const m = p?.type === 'input_image' ? /^data:([^;,]+);base64,(.*)$/s.exec(p.image_url ?? '') : null;
      if (m) content.push({ type: 'image', mimeType: m[1]!, data: m[2]! });
    }
  }
  if (!content.length) content.push({ type: 'text', text: JSON.stringify(output) ?? '' });
  const first = content[0];
  return { content, isError: first?.type === 'text' && first.text.startsWith('Error:') };
}

/** How a client's calls are named in the statistics: one "request" of this model per call. */
export function statsModelName(client: string): string {
  return `MCP: ${client}`;
}

export class BridgeTurns implements ModelClient {
  #call: (BridgeCall & { issued: boolean; resolve: (o: BridgeOutput) => void }) | undefined;
  #n = 0;
  readonly #model: string;

  /** `client`: the MCP client's name, under which the statistics count its calls. */
  constructor(client: string) {
    this.#model = statsModelName(client);
  }

  /** The call the next run carries out; resolves with its output as the client will read it. */
  expect(call: BridgeCall): Promise<BridgeOutput> {
    return new Promise((resolve) => {
      this.#call = { ...call, issued: false, resolve };
    });
  }

  /** The run ended without an output for the call (stopped, failed): the client gets `text` instead. */
  fail(text: string): void {
    const call = this.#call;
    this.#call = undefined;
    call?.resolve({ content: [{ type: 'text', text: `Error: ${text}` }], isError: true });
  }

  get waiting(): boolean {
    return !!this.#call;
  }

  async *stream(request: ModelRequest): AsyncIterable<ModelEvent> {
    const responseId = `bridge_${Date.now().toString(36)}_${++this.#n}`;
    yield { type: 'created', responseId, model: this.#model };
    const call = this.#call;
    let issuedNow = false;
    const last = request.input.at(-1) as { type?: string; call_id?: string; output?: unknown } | undefined;
    if (call?.issued && last?.type === 'function_call_output' && last.call_id === call.callId) {
      this.#call = undefined;
      call.resolve(toMcpContent(last.output));
    } else if (call && !call.issued) {
      call.issued = true;
      issuedNow = true;
      const itemId = `fc_${call.callId}`;
      yield { type: 'function_call.added', itemId, callId: call.callId, name: call.name };
      yield { type: 'function_call.done', itemId, callId: call.callId, name: call.name, arguments: call.argumentsText };
      yield {
        type: 'item.done',
        item: {
          type: 'function_call',
          id: itemId,
          call_id: call.callId,
          name: call.name,
          arguments: call.argumentsText,
          status: 'completed',
        },
      };
    }
    // The turn that carries the call reports usage (no tokens: the client's own model is not Otto's to count), so
    // the statistics count one request of "MCP: <client>" per call; the turn that hands the result back does not.
    yield {
      type: 'completed',
      responseId,
      model: this.#model,
      latencyMs: 0,
      ...(issuedNow ? { usage: { inputTokens: 0, outputTokens: 0 } } : {}),
    };
  }
}
