/** Loading the recorded SSE corpora (corpora/openai-sse) for conformance tests; empty when they are absent. */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { SSE_CORPUS_DIR } from '../support/fake-api/corpora.ts';

export type RawEvent = Record<string, unknown> & { type?: unknown };

export interface Recording {
  /** Path relative to corpora/openai-sse, e.g. `azure/azure-text.1.chunks.txt`. */
  name: string;
  /** Parsed events; lines that are not JSON are dropped and counted (parallel-tool-call-wrapper.1 has two). */
  events: RawEvent[];
  invalidLines: number;
  /** The non-streaming body recorded beside it (`*.json`), when there is one. */
  json: Record<string, unknown> | undefined;
}

export const sseCorpusPresent = existsSync(SSE_CORPUS_DIR);

export function chunkFiles(): string[] {
  if (!sseCorpusPresent) return [];
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.chunks.txt')) out.push(path);
    }
  };
  walk(SSE_CORPUS_DIR);
  return out.sort();
}

export function loadRecording(path: string): Recording {
  const events: RawEvent[] = [];
  let invalidLines = 0;
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    try {
      events.push(JSON.parse(line) as RawEvent);
    } catch {
      invalidLines++;
    }
  }
  const jsonPath = path.replace(/\.chunks\.txt$/, '.json');
  const json = existsSync(jsonPath)
    ? (JSON.parse(readFileSync(jsonPath, 'utf8')) as Record<string, unknown>)
    : undefined;
  return { name: relative(SSE_CORPUS_DIR, path), events, invalidLines, json };
}

/** One recording may hold several responses back to back (multi-turn fixtures): split at each response.created. */
export function splitResponses(events: RawEvent[]): RawEvent[][] {
  const segments: RawEvent[][] = [];
  for (const event of events) {
    if (event.type === 'response.created' || segments.length === 0) segments.push([]);
    segments[segments.length - 1]?.push(event);
  }
  return segments;
}
