/** The connected panels: every agent event is pushed to each open panel port. */
import type { WorkerToPanel } from '../shared/messages.ts';
import type { PortLike } from './panelPort.ts';

const ports = new Set<PortLike>();

export function addPanel(port: PortLike): void {
  ports.add(port);
  port.onDisconnect.addListener(() => ports.delete(port));
}

export function broadcast(message: WorkerToPanel): void {
  for (const port of ports) {
    try {
      port.postMessage(message);
    } catch {
      ports.delete(port);
    }
  }
}
