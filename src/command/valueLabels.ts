/**
 * Provenance labels on the interpreter's values (code mode's capability tracking, after CaMeL): every value carries
 * the set of origins its content came from. A literal carries the labels of what the program's author had read
 * (`literalLabels`: for code mode, the run's origin set when the model wrote the program; empty for the user's own
 * commands); a list or dict the union of its items; a call's result the union of its arguments' labels and what the
 * call itself read. Labels are sorted arrays of strings (the same shape as src/tools/guard/labels.ts).
 */

export type ValueLabels = readonly string[];

export const NONE: ValueLabels = Object.freeze([]);

export function join(a: ValueLabels, b: ValueLabels): ValueLabels {
  if (!b.length || a === b) return a;
  if (!a.length) return b;
  if (b.every((l) => a.includes(l))) return a;
  return [...new Set([...a, ...b])].sort();
}

/** What a CallFn may return to give its result labels of its own (what the call read). */
export class Labelled {
  constructor(
    readonly value: unknown,
    readonly labels: ValueLabels,
  ) {}
}
