// Conformance of the fake Responses API to the real one: its events have the shapes of the recorded streams
// (corpora/openai-sse), the order of the cleanest recordings, and the fields stream-events.tsv requires (except
// where real streams deviate, which the fake imitates). Also: the hosted tool types the client passes through are
// exactly the spec's. Skips where ../shared/corpora is absent.
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { HOSTED_TOOL_TYPES } from '../../src/models/flattenTools.ts';
import { OPENAPI_SUBSET, SSE_CORPUS_DIR, corpusPath } from '../support/fake-api/corpora.ts';
import { describeWithCorpus } from '../support/corpusSkip.ts';
import { buildResponseEvents, type WireEvent } from '../support/fake-api/index.ts';
import { chunkFiles, loadRecording, type RawEvent } from './corpora.ts';

const TSV = corpusPath('openai-openapi', 'stream-events.tsv');

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const keys = (v: unknown) => (isRecord(v) ? Object.keys(v).sort().join(',') : '');

/** Real OpenAI recordings only (not Azure, not LM Studio, not the hand-written ones). */
function realOpenAiEvents(): RawEvent[] {
  return chunkFiles()
    .map(loadRecording)
    .filter((r) => /^openai-responses(-history)?\//.test(r.name) && r.invalidLines === 0)
    .filter((r) => !/resp_test|resp_parallel/.test(JSON.stringify(r.events[0] ?? {})))
    .flatMap((r) => r.events);
}

/** A fingerprint of an event's shape: its keys, and those of its item / part / error by type. */
function shape(event: Record<string, unknown>): string {
  const item = isRecord(event.item) ? `item(${String(event.item.type)}):${keys(event.item)}` : '';
  const part = isRecord(event.part) ? `part:${keys(event.part)}` : '';
  const error = isRecord(event.error) ? `error:${keys(event.error)}` : '';
  return [String(event.type), keys(event), item, part, error].join(' | ');
}

/** Event types in order, runs of the same delta type collapsed to one. */
function typeSequence(events: Array<{ type?: unknown }>): string[] {
  return events.map((e) => String(e.type)).filter((type, i, all) => !(type.endsWith('.delta') && all[i - 1] === type));
}

const fakeTurns = {
  toolCall: buildResponseEvents(
    { calls: [{ name: 'get_weather', arguments: { city: 'Beijing' } }] },
    { model: 'gpt-5.1', tools: [] },
  ).events,
  text: buildResponseEvents({ text: 'Verification code for issue-11239 is blue-42.' }, { model: 'gpt-5.1' }).events,
  reasoning: buildResponseEvents(
    { reasoning: { summary: ['First.', 'Second.'] }, text: 'Answer.' },
    { model: 'gpt-5', include: ['reasoning.encrypted_content'] },
  ).events,
  error: buildResponseEvents(
    { fail: { code: 'insufficient_quota', message: 'You exceeded your current quota.' } },
    { model: 'gpt-5-nano' },
  ).events,
};
const allFake: WireEvent[] = Object.values(fakeTurns).flat();

describeWithCorpus(SSE_CORPUS_DIR, 'conformance: the fake API streams like the recordings', () => {
  const recorded = realOpenAiEvents();
  const recordedShapes = new Set(recorded.map(shape));
  const recordedResponseKeys = new Set(recorded.flatMap((e) => (isRecord(e.response) ? Object.keys(e.response) : [])));
  const byName = (name: string) => loadRecording(chunkFiles().find((f) => f.endsWith(name)) ?? '').events;

  it('every fake event has the shape of a recorded event of its type', () => {
    const missing = [...new Set(allFake.map(shape))].filter((s) => !recordedShapes.has(s));
    expect(missing).toEqual([]);
  });

  it('response objects carry only fields real responses carry', () => {
    const fields = new Set(allFake.flatMap((e) => (isRecord(e.response) ? Object.keys(e.response) : [])));
    expect([...fields].filter((f) => !recordedResponseKeys.has(f))).toEqual([]);
  });

  it('a tool call streams in the order of issue-19493-gpt-5.1-tool-call', () => {
    expect(typeSequence(fakeTurns.toolCall)).toEqual(typeSequence(byName('issue-19493-gpt-5.1-tool-call.chunks.txt')));
  });

  it('a text answer streams in the order of openai-issue-11239.2', () => {
    expect(typeSequence(fakeTurns.text)).toEqual(typeSequence(byName('openai-issue-11239.2.chunks.txt')));
  });

  it('a failure streams in the order of openai-error.1 (error event, then response.failed)', () => {
    expect(typeSequence(fakeTurns.error)).toEqual(typeSequence(byName('openai-error.1.chunks.txt')));
  });
});

describeWithCorpus(TSV, 'conformance: the fake API against stream-events.tsv', () => {
  // Where the recordings contradict the spec, the fake follows the recordings (docs/design.md, platform fact 8).
  const realDeviations: Record<string, string[]> = {
    'response.function_call_arguments.done': ['name'],
    error: ['code', 'message', 'param'], // nested under `error` in real streams
  };
  // Read lazily: a skipped describe still runs its body.
  const requiredFields = () =>
    new Map(
      readFileSync(TSV, 'utf8')
        .trim()
        .split('\n')
        .slice(1)
        .map((line) => line.split('\t'))
        .map(([type = '', , fields = '']) => [type, fields.split(',').filter(Boolean)] as const),
    );

  it('every fake event type is in the spec and has its required fields', () => {
    const required = requiredFields();
    for (const event of allFake) {
      const fields = required.get(event.type);
      expect(fields, `spec lists ${event.type}`).toBeDefined();
      const missing = (fields ?? []).filter((f) => !(f in event) && !realDeviations[event.type]?.includes(f));
      expect(missing, event.type).toEqual([]);
    }
  });
});

describeWithCorpus(OPENAPI_SUBSET, 'conformance: hosted tool types', () => {
  it('HOSTED_TOOL_TYPES are exactly the non-function members of the spec’s Tool union', () => {
    const doc = JSON.parse(readFileSync(OPENAPI_SUBSET, 'utf8')) as {
      components: {
        schemas: Record<string, { oneOf?: Array<{ $ref: string }>; properties?: { type?: { enum?: string[] } } }>;
      };
    };
    const schemas = doc.components.schemas;
    const types = (schemas.Tool?.oneOf ?? []).flatMap(
      (ref) => schemas[ref.$ref.split('/').pop() ?? '']?.properties?.type?.enum ?? [],
    );
    expect(new Set(types.filter((t) => t !== 'function'))).toEqual(new Set(HOSTED_TOOL_TYPES));
  });
});

