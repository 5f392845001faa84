/**
 * Actions deep in the message list (a tool card's stored-result link, a command card's Cancel), passed by context
 * instead of through every component between App and the card.
 */
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';

export interface PanelActions {
  /** Shows a stored large result in the Files view. */
  openResult(handle: string): void;
  cancelCommand(): void;
}

const noop: PanelActions = { openResult: () => undefined, cancelCommand: () => undefined };

export const PanelActionsContext = createContext<PanelActions>(noop);

export const usePanelActions = (): PanelActions => useContext(PanelActionsContext);
