/**
 * What the planner may see of a program's value in plan-first mode (#42 part 2; docs/decisions/plan-first.md):
 * numbers, true/false, null, and strings the program wrote itself (its literals, a typed answer's enum values among
 * them) pass; every other string — page text, a tool's report, a free-text answer — is withheld and named only by
 * its length. Dict keys pass when they are short identifiers (a tool's field names);
 * others are withheld too. So a page can change which of the program's own words or which numbers come back, never
 * put a sentence of its own before the planner. A failed step's message is withheld the same way unless it is
 * Otto's own answer to a card (`the user denied …`).
 */

import { CommandError } from './commandErrors.ts';

/** Keys a planner may read: short identifiers (`count`, `urgent`, `ref`). */
const KEY = /^[A-Za-z_][A-Za-z0-9_]{0,31}$/;

export interface PlannerViewOptions {
  /** The strings the program wrote itself. */
  strings: ReadonlySet<string>;
}

/**
 * The marker in place of a withheld string: its length only. Not its origin either: a page can navigate, so even a
 * host name can be the page's choice (docs/decisions/plan-first.md).
 */
function withheld(text: string, what = 'text'): string {
  return `‹withheld: ${what}, ${text.length} characters›`;
}

function view(value: unknown, o: PlannerViewOptions, depth: number): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value === 'string') return o.strings.has(value) ? value : withheld(value);
  if (depth > 20) return '‹withheld: nested too deep›';
  if (Array.isArray(value)) return value.map((v) => view(v, o, depth + 1));
  if (typeof value === 'object') {
    const out: Record<string, unknown> = {};
    let hidden = 0;
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      if (KEY.test(k) || o.strings.has(k)) out[k] = view(v, o, depth + 1);
      else out[`‹withheld key ${++hidden}›`] = view(v, o, depth + 1);
    }
    return out;
  }
  return withheld(String(value));
}

/** The planner's view of a program's value, as the text the model reads. */
export function plannerView(value: unknown, o: PlannerViewOptions): string {
  const shown = view(value, o, 0);
  const note = '[Plan first: a program’s value reaches you only as numbers, true/false and your own strings.]';
  return `${note}\n${JSON.stringify(shown, null, 2)}`;
}

/**
 * Otto's own words about a step the user denied (they name the tool, the kinds of effect and sites, never page
 * text), also when a program inside the program stopped on it: `ot.run, line 1, column 1: dom.check failed: the user
 * denied …`.
 */
const DENIED = /^(?:(?:[\w.$-]+, )?line \d+, column \d+: [\w.$-]+ failed: )*the user denied /;

/**
 * The planner's view of a program's error: where it stopped and which tool failed stay (the program's own words);
 * the tool's message, which can quote what the program read, is withheld unless it is Otto's denial. Errors that
 * are not a tool's (syntax, unknown names, limits) are about the program's text and pass as they are.
 */
export function plannerError(error: unknown): unknown {
  if (!(error instanceof CommandError) || error.kind !== 'tool') return error;
  const m = /^([\w.$-]+) failed: ([\s\S]*)$/.exec(error.reason);
  if (!m || DENIED.test(m[2]!)) return error;
  return new CommandError(`${m[1]!} failed: ${withheld(m[2]!, 'its message')}`, {
    kind: 'tool',
    position: error.position,
    ...(error.label ? { label: error.label } : {}),
  });
}
