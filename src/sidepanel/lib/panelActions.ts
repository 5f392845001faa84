/**
 * Actions deep in the message list (a tool card's stored-result link, a command card's Cancel), passed by context
 * instead of through every component between App and the card.
 */
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { CommandCard } from '../state/commands.ts';

export interface PanelActions {
  /** Shows a stored large result in the Files view. */
  openResult(handle: string): void;
  cancelCommand(): void;
  /** #17: a model is configured, so a stopped replay can be handed to it. */
  canContinue?: boolean;
  /** #17: "Continue with the model" on a snippet replay that stopped at a step. */
  continueReplay?(card: CommandCard): void;
}

const noop: PanelActions = { openResult: () => undefined, cancelCommand: () => undefined };

export const PanelActionsContext = createContext<PanelActions>(noop);

export const usePanelActions = (): PanelActions => useContext(PanelActionsContext);
