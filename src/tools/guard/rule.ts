/**
 * The rule (pure, no I/O but the pair lookup): a call may send data to destination D without asking when every
 * label of the data that could reach it is D itself, or a pair (label → D) the user allowed. Two refinements keep
 * benign work quiet:
 *   - a URL that appeared verbatim in a tool output the model read (and that the model did not write itself in an
 *     earlier call) may be requested: it carries nothing the page did not already have;
 *   - text the user wrote in this conversation may be typed anywhere.
 * No labels (nothing read yet) asks nothing.
 */
import { NO_LABELS, type Labels } from './labels.ts';

/** One place a call sends data. */
export interface Sink {
  /** The destination's label (an origin, `mcp:<server>`, a scheme, or `*` for unknown). */
  readonly to: string;
  /** What leaves, for the approval card: the URL, the text typed, or a description of the action. */
  readonly data: string;
  /** `url`: a request for `data`; `text`: typed/sent values (`texts`); `action`: a click or key without text. */
  readonly kind: 'url' | 'text' | 'action';
  /** The text values that leave (for the user-text refinement); every one must be the user's. */
  readonly texts?: readonly string[];
}

export interface FlowFacts {
  /** The labels of the data that could reach the sinks. */
  readonly labels: Labels;
  /** Whether the user allowed (label → destination) before ("always for this pair of sites"). */
  pairAllowed(from: string, to: string): boolean | Promise<boolean>;
  /** Whether `text` appears in a message the user wrote in this conversation. */
  userWrote(text: string): boolean;
  /** Whether `url` appeared verbatim in a tool output the model read, and the model did not write it itself. */
  seenUrl(url: string): boolean;
  /** Pairs approved for this call only ("allow once"). */
  readonly grants?: readonly { readonly from: Labels; readonly to: string }[];
}

export type Verdict =
  | { readonly ok: true }
  | {
      readonly ok: false;
      readonly from: Labels;
      readonly to: string;
      readonly data: string;
      readonly kind: Sink['kind'];
    };

/** A verdict that refuses: the flow the user would have to approve. */
export type Blocked = Extract<Verdict, { ok: false }>;

/** A pair of sites a flow goes between (`from` any of the labels, to `to`). */
export interface FlowPair {
  readonly from: Labels;
  readonly to: string;
}

export const ALLOWED: Verdict = Object.freeze({ ok: true });

/** Texts shorter than this never count as the user's (a single letter is in every message). */
const MIN_USER_TEXT = 2;

function granted(facts: FlowFacts, from: string, to: string): boolean {
  return !!facts.grants?.some((g) => g.to === to && g.from.includes(from));
}

function refined(sink: Sink, facts: FlowFacts): boolean {
  if (sink.kind === 'url') return facts.seenUrl(sink.data) || facts.userWrote(sink.data);
  if (sink.kind === 'text' && sink.texts?.length)
    return sink.texts.every((t) => t.trim().length >= MIN_USER_TEXT && facts.userWrote(t));
  return false;
}

/** The first sink the data may not reach without asking, or ALLOWED. */
export async function judge(sinks: readonly Sink[], facts: FlowFacts): Promise<Verdict> {
  const labels = facts.labels;
  if (!labels.length || !sinks.length) return ALLOWED;
  for (const sink of sinks) {
    let foreign: string[] | undefined;
    for (const l of labels) if (l !== sink.to) (foreign ??= []).push(l);
    if (!foreign) continue;
    if (refined(sink, facts)) continue;
    let refused: string[] | undefined;
    for (const from of foreign) {
      if (granted(facts, from, sink.to)) continue;
      if (await facts.pairAllowed(from, sink.to)) continue;
      (refused ??= []).push(from);
    }
    if (refused)
      return { ok: false, from: refused.length ? refused : NO_LABELS, to: sink.to, data: sink.data, kind: sink.kind };
  }
  return ALLOWED;
}
