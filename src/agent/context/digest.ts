/**
 * The digest (#23): settled steps condensed by Otto, without a model request. Once elision has turned the older
 * observations into stubs, what stays of each step is its call, a small output or a stub — about 750 characters a
 * page in a long errand, re-sent with every later request. When those settled steps add up to DIGEST_TOKENS, they
 * are replaced (a batch, so the prompt cache misses once) by one line per call: its arguments and what it returned,
 * the stub's handle for an elided output. Nothing is lost — the user's and the model's messages stay verbatim, small
 * outputs are quoted whole, long ones are read back by handle — so no notes need writing.
 *
 * Only steps before the latest observation are settled: a large output the model has not seen superseded yet, an
 * image, or an item Otto cannot render as a line (a server's compaction item, a web search) ends the digestible run.
 */
import type { ResponseItem } from '../../models/events.ts';
import { isFunctionCall, isFunctionCallOutput, userMessage } from '../transcript.ts';
import { MIN_ELIDE_CHARS, outputText, type ElisionEntry } from './elide.ts';

/** Settled steps worth this many tokens (as sent) are condensed into a digest. */
export const DIGEST_TOKENS = 3000;
/** Arguments longer than this are cut in a digest line (the call is done; its full arguments stay in the transcript). */
export const DIGEST_ARGS_CHARS = 300;

export const DIGEST_HEAD =
  "[Otto: earlier steps, condensed to fit the context: each call, its arguments and what it returned; ot.result(handle='…') reads a long output back in full.]";

/**
 * How many of `items` (the request's items after the latest compaction, elisions applied) form the digestible run:
 * the items before the first one a digest cannot stand for.
 */
export function digestibleRun(items: readonly ResponseItem[], elided: ReadonlyMap<string, ElisionEntry>): number {
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    if (item.type === 'message' && (item.role === 'user' || item.role === 'assistant')) continue;
    if (item.type === 'reasoning' || isFunctionCall(item)) continue;
    if (isFunctionCallOutput(item)) {
      if (elided.has(item.call_id)) continue;
      const output = (item as { output?: unknown }).output;
      if (typeof output === 'string' && output.length < MIN_ELIDE_CHARS) continue;
    }
    return i;
  }
  return items.length;
}

/** An elided output as a digest line names it: its size, page and handle. */
function elidedLine(e: ElisionEntry): string {
  const where = `${e.url ? ` of ${e.url}` : ''}${e.tab === "the run's tab" ? '' : ` in ${e.tab}`}`;
  const image = e.image ? ', with an image no longer attached' : '';
  const back = e.handle ? `handle ${e.handle}` : 'not kept';
  return `[${e.chars.toLocaleString('en-US')} chars${where}${image}; ${back}]`;
}

/** Line breaks shown as ⏎ (the digest keeps one line per step, and a reader still sees where the lines were). */
function markLineBreaks(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ⏎ ');
}

/**
 * The window that stands for `part` (a digestible run): the user's and the model's messages verbatim, in order, and
 * between them Otto's lines for the calls. Reasoning items are left out, as a summary leaves them out.
 */
export function digestWindow(
  part: readonly ResponseItem[],
  elided: ReadonlyMap<string, ElisionEntry>,
  /** The head in the names the model calls (`ot__result` over the wire); the lines already are. */
  head = DIGEST_HEAD,
): ResponseItem[] {
  const outputs = new Map<string, ResponseItem>();
  for (const item of part) if (isFunctionCallOutput(item)) outputs.set(item.call_id, item);
  const window: ResponseItem[] = [];
  let lines: string[] = [];
  const flush = () => {
    if (lines.length) window.push(userMessage(`${head}\n${lines.join('\n')}`));
    lines = [];
  };
  for (const item of part) {
    if (item.type === 'message') {
      flush();
      window.push(item);
    } else if (isFunctionCall(item)) {
      const args = String(item.arguments ?? '');
      const shown =
        args === '{}' || !args
          ? ''
          : ` ${args.length > DIGEST_ARGS_CHARS ? `${args.slice(0, DIGEST_ARGS_CHARS)}…` : args}`;
      const out = outputs.get(item.call_id);
      const e = elided.get(item.call_id);
      const result = e
        ? elidedLine(e)
        : out
          ? markLineBreaks(outputText((out as { output?: unknown }).output))
          : '(no output)';
      lines.push(`- ${item.name}${shown} → ${result}`);
    }
  }
  flush();
  return window;
}
