/**
 * Otto's connect page (#29): an MCP client asks to use Otto in this browser. The page names the client (as it
 * introduced itself), says what it asks for, lets the user pick the tabs to share (they join the session's tab
 * group), and answers Allow or Deny. The relay's port and token come in the fragment and go only to Otto's worker.
 */
import { useEffect, useState } from 'preact/hooks';
import { parseConnectHash, type BridgeClient } from '../shared/bridgeProtocol.ts';
import type { PortClient } from '../port/portClient.ts';
import { errorMessage } from '../shared/errorMessage.ts';

type Phase =
  | { kind: 'loading' }
  | { kind: 'asking'; client: BridgeClient; others: string[] }
  | { kind: 'done'; text: string }
  | { kind: 'error'; text: string };

interface TabRow {
  id: number;
  title: string;
  host: string;
}

function hostOf(url: string | undefined): string {
  try {
    return url ? new URL(url).host || url : '';
  } catch {
    return '';
  }
}

export function ConnectPage({ client, hash }: { client: PortClient; hash: string }) {
  const relay = parseConnectHash(hash);
  const [phase, setPhase] = useState<Phase>(
    relay ? { kind: 'loading' } : { kind: 'error', text: 'This link is not a valid Otto connect link.' },
  );
  const [tabs, setTabs] = useState<TabRow[]>([]);
  const [chosen, setChosen] = useState<Set<number>>(new Set());

  useEffect(() => {
    if (!relay) return;
    void (async () => {
      try {
        const r = await client.request({
          type: 'bridge.open',
          ...relay,
        });
        if (r.allowed) {
          setPhase({ kind: 'done', text: `${r.client.name} is connected to Otto again. You can close this tab.` });
          return;
        }
        const self = (await chrome.tabs.getCurrent())?.id;
        const all = (await chrome.tabs.query({})).filter(
          (t) => t.id !== undefined && t.id !== self && /^https?:/.test(t.url ?? ''),
        );
        setTabs(all.map((t) => ({ id: t.id!, title: t.title || t.url || '', host: hostOf(t.url) })));
        // The tab the user was on before this page opened is the likely one to share.
        const last = [...all].sort((a, b) => (b.lastAccessed ?? 0) - (a.lastAccessed ?? 0))[0];
        setChosen(new Set(last?.id !== undefined ? [last.id] : []));
        setPhase({ kind: 'asking', client: r.client, others: r.others });
      } catch (err) {
        setPhase({ kind: 'error', text: errorMessage(err) });
      }
    })();
  }, []);

  const answer = async (allow: boolean) => {
    if (!relay || phase.kind !== 'asking') return;
    const name = phase.client.name;
    const body = { type: 'bridge.answer', token: relay.token, allow, tabIds: allow ? [...chosen] : [] } as const;
    try {
      await client.request(body).catch(async () => {
        // The worker restarted while the page was open (it forgot the request): reach the server again, then answer.
        await client.request({ type: 'bridge.open', ...relay });
        await client.request(body);
      });
      setPhase({
        kind: 'done',
        text: allow
          ? `${name} is connected. Its calls appear in Otto's side panel as the conversation “${name}”; Disconnect there ends it. You can close this tab.`
          : `${name} was not connected. It was told you said no.`,
      });
    } catch (err) {
      setPhase({ kind: 'error', text: errorMessage(err) });
    }
  };

  const toggle = (id: number) => {
    const next = new Set(chosen);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setChosen(next);
  };

  return (
    <main
      class="connect"
      data-testid="connect-page"
      data-state={phase.kind}
      style="max-width:40rem;margin:2rem auto;padding:0 1rem"
    >
      <h1>Connect an agent to Otto</h1>
      {phase.kind === 'loading' && <p>Reaching the MCP server…</p>}
      {phase.kind === 'error' && (
        <p role="alert" data-testid="connect-error">
          {phase.text}
        </p>
      )}
      {phase.kind === 'done' && <p data-testid="connect-done">{phase.text}</p>}
      {phase.kind === 'asking' && (
        <>
          <p data-testid="connect-client">
            <strong>{phase.client.name}</strong>
            {phase.client.version ? ` ${phase.client.version}` : ''} asks to use Otto’s browser tools in this browser:
            read the pages you share (snapshot, find), act on them (click, type, select, navigate) and open tabs.
          </p>
          <p>
            Every call goes through Otto, as in the side panel: risky actions wait for your approval there, it reaches
            only the tabs you share, and data read on one site is not sent to another without asking you.
          </p>
          {phase.others.length > 0 && (
            <p role="alert" data-testid="connect-others">
              Otto is already connected to {phase.others.join(', ')}. Allow adds a second session; Deny keeps only{' '}
              {phase.others.length > 1 ? 'those' : 'that one'}.
            </p>
          )}
          <fieldset>
            <legend>Tabs to share</legend>
            {tabs.length === 0 && <p>No web page is open. The agent will ask in the side panel when it needs a tab.</p>}
            {tabs.map((t) => (
              <label key={t.id} style="display:block">
                <input
                  type="checkbox"
                  data-testid="connect-tab"
                  data-tab-id={String(t.id)}
                  checked={chosen.has(t.id)}
                  onChange={() => toggle(t.id)}
                />{' '}
                {t.title} <small>({t.host})</small>
              </label>
            ))}
          </fieldset>
          <p>
            <button type="button" data-testid="connect-allow" onClick={() => void answer(true)}>
              {phase.others.length ? 'Allow a second session' : 'Allow'}
            </button>{' '}
            <button type="button" data-testid="connect-deny" onClick={() => void answer(false)}>
              Deny
            </button>
          </p>
        </>
      )}
    </main>
  );
}
