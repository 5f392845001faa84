/**
 * Otto's own clipboard (see src/content/gestures/clipboard.ts for why it is not the system's): what the last
 * Control/Meta+C or +X copied, with the origin it came from. It lives in the worker's memory, so it is shared by
 * every tab and frame of the session and is gone when the worker stops — like a clipboard after a restart.
 */
import type { ClipboardEntry } from '../../../shared/contentMessages.ts';

let held: ClipboardEntry | undefined;

export const ottoClipboard = {
  get: (): ClipboardEntry | undefined => held,
  set: (entry: ClipboardEntry): void => {
    held = entry;
  },
  clear: (): void => {
    held = undefined;
  },
};

/** Whether a key combination pastes (Control+V, Meta+V, ControlOrMeta+V). */
export const PASTE_KEY =
  /^(?:(?:Shift|Alt|Option)\+)*(?:Control|Ctrl|Meta|Cmd|Command|ControlOrMeta)\+(?:(?:Shift)\+)*v$/i;
