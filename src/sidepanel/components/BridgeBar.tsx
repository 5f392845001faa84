/**
 * MCP clients connected to Otto (#29). On the session's own conversation: who it is, how many calls it made, and
 * Disconnect (after which its calls fail with a message saying so). Elsewhere: a line saying a client is connected,
 * with a button to watch its conversation.
 */
import { useEffect, useState } from 'preact/hooks';
import type { PortClient } from '../../port/portClient.ts';
import type { BridgeSessionInfo } from '../../port/replies.ts';

export function BridgeBar({
  client,
  conversationId,
  open,
}: {
  client: PortClient;
  conversationId: string | undefined;
  open(id: string): void;
}) {
  const [sessions, setSessions] = useState<BridgeSessionInfo[]>([]);
  useEffect(() => {
    let live = true;
    const refresh = () =>
      void client
        .request({ type: 'bridge.list' })
        .then((s) => live && setSessions(s))
        .catch(() => undefined);
    const off = client.onEvent((m) => {
      if (m.type === 'bridge.changed' || m.type === 'hello') refresh();
      // The call count moves with every call.
      else if (m.type === 'agent' && (m.event as { type: string }).type === 'run.status') refresh();
    });
    refresh();
    return () => {
      live = false;
      off();
    };
  }, [client]);
  if (!sessions.length) return null;
  const here = sessions.find((s) => s.conversationId === conversationId);
  if (here) {
    return (
      <div class="bridge-bar" data-testid="bridge-bar" role="status">
        <span>
          <strong>{here.client.name}</strong> is using Otto over MCP{here.connected ? '' : ' (reconnecting…)'} ·{' '}
          {here.calls} {here.calls === 1 ? 'call' : 'calls'}
        </span>{' '}
        <button
          type="button"
          data-testid="bridge-disconnect"
          onClick={() =>
            void client
              .request({ type: 'bridge.disconnect', conversationId: here.conversationId })
              .catch(() => undefined)
          }
        >
          Disconnect
        </button>
      </div>
    );
  }
  const first = sessions[0]!;
  return (
    <div class="bridge-bar" data-testid="bridge-bar" role="status">
      <span>
        <strong>{first.client.name}</strong> is connected to Otto over MCP.
      </span>{' '}
      <button type="button" data-testid="bridge-show" onClick={() => open(first.conversationId)}>
        Show its session
      </button>
    </div>
  );
}
