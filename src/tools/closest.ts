/**
 * "Did you mean ...?" for unknown tool names: plain Levenshtein distance, case-insensitive. Called only on the error
 * path over a few hundred names at most, so a simple O(n·m) row DP is plenty.
 */

export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  if (!a.length) return b.length;
  if (!b.length) return a.length;
  let prev = new Array<number>(b.length + 1);
  let cur = new Array<number>(b.length + 1);
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= b.length; j++) {
      const cost = ca === b.charCodeAt(j - 1) ? 0 : 1;
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
    }
    [prev, cur] = [cur, prev];
  }
  return prev[b.length]!;
}

/**
 * The `n` candidates nearest to `query`, best first (ties by name). A query that matches only the function part
 * (`click` for `dom.click`) scores by that part plus one, so a bare name still finds its tool. Candidates further
 * than about half the query's length are left out: a list of unrelated names helps no one.
 */
export function closestNames(query: string, candidates: Iterable<string>, n = 3): string[] {
  const q = query.toLowerCase();
  const scored: { name: string; score: number }[] = [];
  for (const name of candidates) {
    const lower = name.toLowerCase();
    const dot = lower.indexOf('.');
    let score = editDistance(q, lower);
    if (dot > 0 && !q.includes('.')) score = Math.min(score, editDistance(q, lower.slice(dot + 1)) + 1);
    if (score <= Math.max(2, Math.ceil(q.length / 2))) scored.push({ name, score });
  }
  scored.sort((a, b) => a.score - b.score || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return scored.slice(0, Math.max(0, n)).map((s) => s.name);
}
