/** The shapes kept in IndexedDB. Plain data only: everything here must survive structured clone. */
import type { AnswerLink } from '../shared/answerLink.ts';

export interface MetaRecord {
  key: string;
  value: unknown;
  updatedAt: number;
}

export interface ConversationRecord {
  id: string;
  title: string;
  createdAt: number;
  updatedAt: number;
}

export interface ItemRecord {
  conversationId: string;
  /** Position in the transcript, from 0, with no gaps. */
  seq: number;
  createdAt: number;
  /** A Responses API input/output item (message, reasoning, function_call, function_call_output). */
  item: Record<string, unknown>;
  /**
   * Origin labels of a tool output (data-flow guard): where its content came from. Kept per item so that what stands
   * for it later — a stub, a summary — carries them too (#23).
   */
  labels?: string[];
  /**
   * The verdict on each http(s) URL of an assistant message (issue #42 part 3, agent/answerLinkCheck.ts): which
   * links carry data read from another site, so the panel asks before opening them. Plain data (shared/answerLink.ts).
   */
  links?: AnswerLink[];
}
