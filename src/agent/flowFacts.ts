/**
 * The run's side of the data-flow guard: the facts it judges a call by, taken from what the run has persisted —
 * the run's origin set (RunState.origins, written with each output), the user's own messages, the tool outputs the
 * model read and the arguments it wrote, the pairs the user allowed for good (SitePermissions), and the flows
 * approved once for this call. The rule itself lives in src/tools/guard/rule.ts.
 */
import type { ItemRecord } from '../storage/records.ts';
import type { PendingCall } from '../storage/runRecords.ts';
import type { FlowBlock, RunFlowFacts } from './toolHost.ts';
import type { RunSession } from './session.ts';

/** Text of a message's or output's content (a string, or parts with `text`). */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  let out = '';
  for (const p of content) {
    const t = (p as { text?: unknown } | null)?.text;
    if (typeof t === 'string') out += (out ? '\n' : '') + t;
  }
  return out;
}

interface Corpus {
  /** What the user wrote in this conversation. */
  user: string[];
  /** Tool outputs the model read. */
  outputs: string[];
  /** Arguments the model wrote (JSON text), by call. */
  written: { callId: unknown; args: string }[];
}

function corpusOf(records: readonly ItemRecord[]): Corpus {
  const c: Corpus = { user: [], outputs: [], written: [] };
  for (const { item } of records) {
    if (item.type === 'message' && item.role === 'user') c.user.push(contentText(item.content));
    else if (item.type === 'function_call_output') c.outputs.push(contentText(item.output));
    else if (item.type === 'function_call' && typeof item.arguments === 'string')
      c.written.push({ callId: item.call_id, args: item.arguments });
  }
  return c;
}

/** The URL as it would appear inside a JSON string (escaped quotes and backslashes). */
const jsonForm = (s: string): string => JSON.stringify(s).slice(1, -1);

/** The transcript-based refinements: what the user wrote, and URLs the model read but did not write. */
export function transcriptFacts(
  records: readonly ItemRecord[],
  callId: string,
): Pick<RunFlowFacts, 'userWrote' | 'seenUrl'> {
  const corpus = corpusOf(records);
  const call = { callId };
  return {
    userWrote: (text) => corpus.user.some((m) => m.includes(text)),
    seenUrl(url) {
      if (!corpus.outputs.some((o) => o.includes(url))) return false;
      // A URL the model wrote itself (typed into a page, echoed by a tool) is the model's, not the page's.
      // (The call being judged is in the transcript already: its own arguments do not count.)
      const escaped = jsonForm(url);
      return !corpus.written.some(
        (w) => w.callId !== call.callId && (w.args.includes(url) || w.args.includes(escaped)),
      );
    },
  };
}

export async function flowFacts(
  session: RunSession,
  call: Pick<PendingCall, 'callId' | 'flowGrants'>,
  addLabels?: (labels: readonly string[]) => void,
  allowAll = false,
): Promise<RunFlowFacts> {
  const sites = session.deps.sites;
  return {
    origins: session.state.origins ?? [],
    pairAllowed: (from, to) => sites.isFlowAllowed?.(from, to) ?? false,
    ...transcriptFacts(await session.transcript(), call.callId),
    grants: call.flowGrants ?? [],
    ...(allowAll ? { allowAll } : {}),
    ...(addLabels ? { addLabels } : {}),
  };
}

/** The text the model gets when the user denied a flow. */
export function deniedFlowOutput(name: string, flow: FlowBlock | undefined): string {
  if (!flow) return `Error: the user denied ${name}`;
  return `Error: the user denied ${name}: ${flow.sentence.charAt(0).toLowerCase()}${flow.sentence.slice(1)}. Nothing was sent. Do not try to send this data another way.`;
}

/** The first line of an output of a call the user approved (so the model knows the user said yes). */
export function approvedNote(by: PendingCall['approvedBy']): string | undefined {
  if (by === 'once') return '[The user approved this call.]';
  if (by === 'site') return '[Allowed by the user ("always" for this site or this pair of sites).]';
  return undefined;
}
