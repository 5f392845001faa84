/**
 * The page reader (pageReader.ts) as a ModelClient, for unit tests and the bench: it plays a model with a context
 * window (a request past it fails with `context_length_exceeded`), reports usage as the fake API counts it
 * (characters ÷ 4, cached prefix tokens), and optionally offers server-side compaction.
 */
import type {
  CompactRequest,
  CompactResult,
  ModelClient,
  ModelEvent,
  ModelRequest,
  ResponseItem,
} from '../../src/models/events.ts';
import { flattenToolsForResponsesApi } from '../../src/models/flattenTools.ts';
import { compactResponse, PromptCache, promptText, promptTokens } from './fake-api/contextModel.ts';
import { calls, say, type Step } from './scriptedModel.ts';
import { readerAction } from './pageReader.ts';

export interface ReaderRequest {
  tokens: number;
  cached: number;
  refused: boolean;
  summary: boolean;
  input: ResponseItem[];
}

export class ReaderModel implements ModelClient {
  readonly requests: ReaderRequest[] = [];
  readonly compactions: CompactRequest[] = [];
  readonly #cache = new PromptCache();
  compact?: (request: CompactRequest) => Promise<CompactResult>;

  constructor(
    readonly pages: number,
    readonly origin: string,
    readonly opts: { window?: number; serverCompaction?: boolean } = {},
  ) {
    if (opts.serverCompaction) {
      this.compact = async (request) => {
        this.compactions.push(request);
        const res = compactResponse({ input: request.input as Record<string, unknown>[] });
        return { ok: true, output: res.output as ResponseItem[] };
      };
    }
  }

  async *stream(request: ModelRequest): AsyncIterable<ModelEvent> {
    const body = {
      ...(request.instructions ? { instructions: request.instructions } : {}),
      tools: flattenToolsForResponsesApi(request.tools) as unknown as Record<string, unknown>[],
      input: request.input as Record<string, unknown>[],
    };
    const tokens = promptTokens(body);
    const last = request.input[request.input.length - 1];
    const summary = !!last && JSON.stringify(last).includes('working notes');
    const refused = this.opts.window !== undefined && tokens > this.opts.window;
    const cached = refused ? 0 : this.#cache.cachedTokens(promptText(body).text);
    this.requests.push({ tokens, cached, refused, summary, input: structuredClone(request.input) });
    if (refused) {
      yield {
        type: 'failed',
        error: {
          kind: 'bad_request',
          status: 400,
          code: 'context_length_exceeded',
          message: `The request was refused (400): This model's maximum context length is ${this.opts.window} tokens. However, your messages resulted in ${tokens} tokens.`,
          retryable: false,
        },
      };
      return;
    }
    const action = readerAction(request.input as Record<string, unknown>[], this.pages, this.origin);
    const usage = { inputTokens: tokens, outputTokens: 20, cachedTokens: cached };
    const steps: Step[] =
      'call' in action
        ? calls([{ name: action.call.name, args: action.call.arguments }], { usage })
        : say(action.text, { usage });
    for (const s of steps)
      if ('type' in s && s.type !== 'wait' && s.type !== 'hang' && s.type !== 'throw' && s.type !== 'call') yield s;
  }
}
