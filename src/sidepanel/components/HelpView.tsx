/**
 * The help browser: a fuzzy search box over tools, packs, snippets and aliases (`help.search`, typos tolerated);
 * without a query, packs → tools → detail. Snippets and examples go into the composer ("Try it").
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { HelpHit, HelpSlice } from '../state/helpBrowser.ts';
import { HelpDetail } from './HelpDetail.tsx';

const KIND_TITLE: Record<HelpHit['kind'], string> = {
  tool: 'Tools',
  pack: 'Packs',
  snippet: 'Snippets',
  alias: 'Aliases',
};

function Row({ name, text, onPick, kind }: { name: string; text: string; kind: string; onPick(): void }) {
  return (
    <li>
      <button
        type="button"
        class="help-row"
        data-testid="help-result"
        data-kind={kind}
        data-name={name}
        onClick={onPick}
      >
        <code>{kind === 'snippet' ? `$${name}` : name}</code>
        <span class="muted">{text}</span>
      </button>
    </li>
  );
}

export function HelpView({ help, onTry }: { help: HelpSlice; onTry(text: string): void }) {
  const [query, setQuery] = useState(help.query);
  const box = useRef<HTMLInputElement>(null);
  const { load, search } = help;

  useEffect(() => {
    void load();
    box.current?.focus();
  }, [load]);
  // Search as the user types, once they pause.
  useEffect(() => {
    const t = setTimeout(() => void search(query), 120);
    return () => clearTimeout(t);
  }, [query, search]);

  const snippetInvocation = (name: string) =>
    help.index?.snippets.find((s) => s.name === name)?.invocation ?? `$${name}`;
  const pick = (hit: HelpHit) => {
    if (hit.kind === 'pack') {
      setQuery('');
      help.openPack(hit.name);
    } else if (hit.kind === 'snippet') onTry(snippetInvocation(hit.name));
    else void help.openTool(hit.kind === 'alias' ? (hit.target ?? hit.name) : hit.name);
  };

  const body = help.tool ? (
    <ToolDetail help={help} onTry={onTry} />
  ) : query.trim() ? (
    <SearchResults help={help} query={query.trim()} onPick={pick} />
  ) : help.pack ? (
    <PackTools help={help} />
  ) : (
    <HelpIndex help={help} onTry={onTry} />
  );

  return (
    <main class="help-pane" data-testid="help-view">
      <input
        ref={box}
        type="search"
        class="help-search"
        data-testid="help-search"
        aria-label="Search tools, packs, snippets and aliases"
        placeholder="Search tools (typos are fine)"
        value={query}
        onInput={(e) => {
          setQuery((e.target as HTMLInputElement).value);
          if (help.tool) void help.openTool(undefined);
        }}
      />
      {help.error && <p class="error-text">{help.error}</p>}
      <div class="help-body" aria-busy={help.searching}>
        {body}
      </div>
    </main>
  );
}

interface Part {
  help: HelpSlice;
  onTry(text: string): void;
}

function ToolDetail({ help, onTry }: Part) {
  if (help.detail === undefined) return <p class="muted">Loading…</p>;
  if (help.detail === null) return <p class="muted">No tool named {help.tool}.</p>;
  return <HelpDetail detail={help.detail} onTry={onTry} onBack={() => void help.openTool(undefined)} />;
}

/** The search's hits, grouped by kind (tools, packs, snippets, aliases). */
function SearchResults({ help, query, onPick }: { help: HelpSlice; query: string; onPick(hit: HelpHit): void }) {
  const hits = help.results ?? [];
  if (help.results && !hits.length)
    return (
      <p class="muted" data-testid="help-empty">
        Nothing matches “{query}”.
      </p>
    );
  const kinds = (['tool', 'pack', 'snippet', 'alias'] as const).filter((k) => hits.some((h) => h.kind === k));
  return (
    <>
      {kinds.map((k) => (
        <section key={k} class="help-group">
          <h3>{KIND_TITLE[k]}</h3>
          <ul class="help-list">
            {hits
              .filter((h) => h.kind === k)
              .map((h) => (
                <Row
                  key={`${k}:${h.name}`}
                  kind={k}
                  name={h.name}
                  text={h.kind === 'pack' ? `${h.toolCount ?? 0} tools · ${h.text}` : h.text}
                  onPick={() => onPick(h)}
                />
              ))}
          </ul>
        </section>
      ))}
    </>
  );
}

/** One pack: where it comes from, its instructions, its tools. */
function PackTools({ help }: { help: HelpSlice }) {
  const pack = help.index?.packs.find((p) => p.name === help.pack);
  return (
    <section class="help-group">
      <button type="button" class="link back" onClick={() => help.openPack(undefined)}>
        ← All packs
      </button>
      <h3>
        The {help.pack} pack <span class="muted">({pack?.source ?? 'local'})</span>
      </h3>
      {pack?.instructions && <p class="muted">{pack.instructions}</p>}
      <ul class="help-list">
        {pack?.tools.map((t) => (
          <Row key={t.name} kind="tool" name={t.name} text={t.description} onPick={() => void help.openTool(t.name)} />
        ))}
      </ul>
    </section>
  );
}

/** Without a query: the packs, the snippets and the aliases, and how to run a command without the model. */
function HelpIndex({ help, onTry }: Part) {
  const idx = help.index;
  if (!idx) return <p class="muted">Loading…</p>;
  return (
    <>
      <section class="help-group">
        <h3>Packs</h3>
        <ul class="help-list">
          {idx.packs.map((p) => (
            <Row
              key={p.name}
              kind="pack"
              name={p.name}
              text={`${p.tools.length} tools`}
              onPick={() => help.openPack(p.name)}
            />
          ))}
        </ul>
      </section>
      {idx.snippets.length > 0 && (
        <section class="help-group">
          <h3>Snippets</h3>
          <ul class="help-list">
            {idx.snippets.map((s) => (
              <Row key={s.name} kind="snippet" name={s.name} text={s.description} onPick={() => onTry(s.invocation)} />
            ))}
          </ul>
        </section>
      )}
      {idx.aliases.length > 0 && (
        <section class="help-group">
          <h3>Aliases</h3>
          <ul class="help-list">
            {idx.aliases.map((a) => (
              <Row
                key={a.name}
                kind="alias"
                name={a.name}
                text={`→ ${a.target}`}
                onPick={() => void help.openTool(a.target)}
              />
            ))}
          </ul>
        </section>
      )}
      <p class="muted">
        Type a command in the chat box to run it without the model: <code>ot.tools(info="list")</code>,{' '}
        <code>/help tabs</code>, <code>$snippet k=v</code>.
      </p>
    </>
  );
}
