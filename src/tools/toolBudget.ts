/**
 * A budget for the tool definitions in one model request, whatever is connected. Tools are grouped (an MCP
 * server's pack is one group); when the definitions would pass the budget, whole groups are deferred, the most
 * costly first, until the rest fits. A deferred group's tools are found with a search tool, and only the
 * definitions it returned ("loaded", most recent first, themselves bounded) are sent — so a task that needs one
 * tool out of thousands costs one search, not thousands of definitions on every request.
 *
 * General on purpose: nothing here knows MCP. The composition root decides which groups may be deferred and
 * filters each request's definitions through `ToolBudget.filter`.
 */

/** About 16k tokens of definitions per request (a character is about a quarter of a token in JSON). */
export const DEFAULT_TOOL_BUDGET_CHARS = 64_000;
/** How many loaded definitions a request carries at most, and how many characters of them. */
export const LOADED_LIMITS = { tools: 16, chars: 24_000 } as const;

export interface BudgetGroup {
  name: string;
  /** Characters of its definitions as sent (JSON). */
  chars: number;
}

/** The groups to defer so that `fixedChars` + the rest stays within `budget` (most costly first). */
export function planDeferral(fixedChars: number, groups: readonly BudgetGroup[], budget: number): Set<string> {
  const deferred = new Set<string>();
  let total = fixedChars + groups.reduce((n, g) => n + g.chars, 0);
  for (const g of [...groups].sort((a, b) => b.chars - a.chars || (a.name < b.name ? -1 : 1))) {
    if (total <= budget) break;
    deferred.add(g.name);
    total -= g.chars;
  }
  return deferred;
}

export interface SearchCandidate {
  /** Qualified name (`pack.tool`). */
  name: string;
  description: string;
}

const words = (text: string): string[] =>
  text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 1);

/** The candidates that best match `query` (name words weigh more than description words), best first. */
export function searchTools(query: string, candidates: readonly SearchCandidate[], limit: number): SearchCandidate[] {
  const terms = [...new Set(words(query))];
  if (!terms.length) return [];
  const scored: { c: SearchCandidate; score: number }[] = [];
  for (const c of candidates) {
    const name = c.name.toLowerCase();
    const desc = new Set(words(c.description));
    let score = 0;
    for (const t of terms) {
      if (name.includes(t)) score += 3;
      if (desc.has(t)) score += 1;
    }
    if (name === query.trim().toLowerCase()) score += 10;
    if (score > 0) scored.push({ c, score });
  }
  scored.sort((a, b) => b.score - a.score || (a.c.name < b.c.name ? -1 : 1));
  return scored.slice(0, limit).map((s) => s.c);
}

/** The deferral in force and the definitions loaded by searches (worker memory; a new worker starts empty). */
export class ToolBudget {
  /** Groups whose definitions are not sent unless loaded. */
  deferred: ReadonlySet<string> = new Set();
  private loaded: string[] = [];

  constructor(readonly budgetChars = DEFAULT_TOOL_BUDGET_CHARS) {}

  setDeferred(groups: ReadonlySet<string>): void {
    this.deferred = groups;
  }

  /** Marks tools as loaded (most recent first); the oldest fall out past the limit. */
  load(names: readonly string[]): void {
    this.loaded = [...names, ...this.loaded.filter((n) => !names.includes(n))].slice(0, LOADED_LIMITS.tools);
  }

  isLoaded(name: string): boolean {
    return this.loaded.includes(name);
  }

  /**
   * The definitions to send: everything outside deferred groups, plus loaded ones up to the loaded limits.
   * `groupOf(def)` names a definition's group and its qualified name (undefined: never deferred).
   */
  filter<D>(defs: readonly D[], groupOf: (def: D) => { group: string; name: string } | undefined): D[] {
    if (!this.deferred.size) return [...defs];
    let chars = 0;
    const out: D[] = [];
    for (const d of defs) {
      const g = groupOf(d);
      if (!g || !this.deferred.has(g.group)) {
        out.push(d);
        continue;
      }
      if (!this.isLoaded(g.name)) continue;
      const size = JSON.stringify(d).length;
      if (chars + size > LOADED_LIMITS.chars) continue;
      chars += size;
      out.push(d);
    }
    return out;
  }
}

/** The worker's budget (one registry per worker). */
export const toolBudget = new ToolBudget();
