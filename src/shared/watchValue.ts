/**
 * The value a watch run reads (#46 part 2). A snippet's value is its output — the last statement's value, exactly as
 * `$name` prints it in the panel (command.run's `output`); write the snippet so its last line reads what to watch
 * (`dom.text(ref=…)`). A task's value is what the model says it read: the watch asks for it on a line of its own,
 * `VALUE: …`, and the last such line of the answer is taken (failing that, the answer's last non-empty line, so a
 * model that forgets the label still gives something to compare). Either way the value is cut to MAX_WATCH_VALUE
 * characters, which is what the history keeps.
 */
export const MAX_WATCH_VALUE = 2000;

/** The line appended to a watched task's message, so the answer carries the value on a line of its own. */
export function watchTaskMessage(task: string, condition: string): string {
  return `${task.trim()}\n\nThis run is a watch (${condition}): end your answer with one line "VALUE: <the value you read>", the value exactly as the page shows it.`;
}

/**
 * A snippet's output → the watched value. When the output holds page text inside Otto's untrusted boundary
 * (`dom.text` and kin: a first line of Otto's words, then `<external-content-…>page text</external-content-…>`), the
 * value is the page's words, so a number in Otto's own line ("12 lines") is never the one compared.
 */
export function watchValueFromOutput(output: string): string {
  const inside = [...output.matchAll(/<external-content-([0-9a-f]+)>([\s\S]*?)<\/external-content-\1>/g)];
  return cut((inside.length ? inside.map((m) => m[2]!).join('\n') : output).trim());
}

/** A task's answer → the watched value: the last `VALUE:` line, else the last non-empty line, markup removed. */
export function watchValueFromAnswer(answer: string): string {
  const lines = answer
    .split(/\r?\n/)
    .map((l) => l.replace(/[*_`]+/g, '').trim())
    .filter(Boolean);
  const labelled = lines.filter((l) => /^value\s*:/i.test(l)).pop();
  return cut(labelled ? labelled.replace(/^value\s*:\s*/i, '') : (lines.pop() ?? ''));
}

function cut(s: string): string {
  return s.length > MAX_WATCH_VALUE ? s.slice(0, MAX_WATCH_VALUE) : s;
}
