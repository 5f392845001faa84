/**
 * The whole config as YAML. Problems are shown as `line L, column C: message` shortly after you stop typing (click
 * one to jump there); Save stays disabled while the text is invalid, and the worker validates again before storing
 * anything. Validation runs off the keystroke path (#34): a 1 MB config takes about a second to check, so it waits
 * for a pause in typing (longer for larger texts) and never blocks a keystroke.
 * Reset fills in the defaults, Import loads a file, Export downloads the saved config (secrets are never in it).
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { PortClient } from '../../port/portClient.ts';
import { defaultsYaml, formatProblem, type ConfigProblem } from '../../config/edit.ts';
import { checkText, type Checked } from './yamlCheck.ts';
import { YamlChecker } from './yamlChecker.ts';
import { OutcomeLine, useSaver } from './useSaver.tsx';
import { downloadText } from '../download.ts';

/** The pause in typing before the text is checked: short for a small config, longer for a large one. */
export function checkDelayMs(chars: number): number {
  return chars < 20_000 ? 150 : chars < 200_000 ? 400 : 800;
}

function offsetOf(text: string, p: ConfigProblem): number {
  const lines = text.split('\n');
  let offset = 0;
  for (let i = 0; i < p.line - 1 && i < lines.length; i++) offset += lines[i]!.length + 1;
  return offset + Math.max(0, p.column - 1);
}

export function YamlEditor({ client, saved, onSaved }: { client: PortClient; saved: string; onSaved(): void }) {
  const [text, setText] = useState(saved);
  const area = useRef<HTMLTextAreaElement>(null);
  const file = useRef<HTMLInputElement>(null);
  const saver = useSaver();
  useEffect(() => setText(saved), [saved]);
  // Checks run on a background thread (a 1 MB config takes about a second to check).
  const checker = useRef<YamlChecker | undefined>(undefined);
  checker.current ??= new YamlChecker();
  useEffect(() => () => checker.current?.dispose(), []);
  // A large saved text is checked after the first paint too, so opening the page never waits on it.
  const [checked, setChecked] = useState<Checked>(() =>
    saved.length < 20_000 ? checkText(saved) : { text: '\u0000not checked yet', problems: [], warnings: [] },
  );
  // Debounced: each keystroke only re-arms the timer; an answer for an older text is dropped.
  useEffect(() => {
    if (checked.text === text) return;
    let live = true;
    const timer = setTimeout(
      () => void checker.current!.check(text).then((c) => live && setChecked(c)),
      checkDelayMs(text.length),
    );
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [text]);
  const current = checked.text === text;
  const { problems, warnings } = checked;
  const dirty = text !== saved;

  const jump = (p: ConfigProblem) => {
    const el = area.current;
    if (!el) return;
    const at = offsetOf(text, p);
    el.focus();
    el.setSelectionRange(at, at);
  };

  const save = () =>
    saver.run(async () => {
      const now = current ? checked : await checker.current!.check(text);
      if (!current) setChecked(now);
      if (now.problems.length) throw new Error(now.problems.map(formatProblem).join('\n'));
      await client.request({ type: 'config.save', yaml: text });
      onSaved();
      return 'Saved.';
    });

  const importFile = async (f: File | undefined) => {
    if (!f) return;
    setText(await f.text());
    saver.setOutcome({ kind: 'ok', text: `Loaded ${f.name}. Review it, then Save.` });
  };

  const exportConfig = () =>
    saver.run(async () => {
      const r = await client.request({ type: 'config.export' });
      downloadText(r.filename, 'application/yaml', r.text);
      return `Exported ${r.filename}.`;
    });

  return (
    <section class="card" aria-labelledby="yaml-title">
      <h2 id="yaml-title">
        <label for="config-yaml">Configuration (YAML)</label>
      </h2>
      <textarea
        id="config-yaml"
        ref={area}
        class="code-editor"
        data-testid="config-yaml"
        rows={18}
        spellcheck={false}
        aria-invalid={current && problems.length > 0}
        aria-describedby="config-problems"
        value={text}
        onInput={(e) => setText((e.target as HTMLTextAreaElement).value)}
      />
      <div id="config-problems">
        {!current ? (
          <p class="hint" data-testid="config-checking">
            Checking…
          </p>
        ) : problems.length > 0 ? (
          <ul class="problems" data-testid="config-errors" role="alert">
            {problems.map((p, i) => (
              <li key={i}>
                <button type="button" class="link" onClick={() => jump(p)}>
                  {formatProblem(p)}
                </button>
              </li>
            ))}
          </ul>
        ) : (
          <p class="hint">
            {dirty
              ? 'Valid. Not saved yet.'
              : 'Saved. Every key is optional; keys this version does not know are ignored (and kept).'}
          </p>
        )}
        {warnings.length > 0 && (
          <ul class="problems warn" data-testid="config-warnings" role="status">
            {warnings.map((p, i) => (
              <li key={i}>
                <button type="button" class="link" onClick={() => jump(p)}>
                  {formatProblem(p)}
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
      <div class="row wrap">
        <button
          type="button"
          class="primary"
          data-testid="config-save"
          disabled={(current && problems.length > 0) || !dirty || saver.busy}
          onClick={() => void save()}
        >
          Save
        </button>
        <button type="button" disabled={!dirty} onClick={() => setText(saved)}>
          Revert
        </button>
        <button type="button" data-testid="config-reset" onClick={() => setText(defaultsYaml())}>
          Reset to defaults
        </button>
        <button type="button" onClick={() => file.current?.click()}>
          Import…
        </button>
        <input
          ref={file}
          type="file"
          accept=".yaml,.yml,text/yaml,text/plain"
          hidden
          aria-label="Import config file"
          data-testid="config-import"
          onChange={(e) => void importFile((e.target as HTMLInputElement).files?.[0])}
        />
        <button type="button" data-testid="config-export" onClick={() => void exportConfig()}>
          Export
        </button>
      </div>
      <OutcomeLine outcome={saver.outcome} testId="config-message" />
    </section>
  );
}
