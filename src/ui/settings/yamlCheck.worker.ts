/**
 * The settings page's YAML check on a background thread (#34): parsing and validating a 1 MB config takes about a
 * second, which on the page's own thread froze typing and scrolling each time the user paused.
 */
import { checkText } from './yamlCheck.ts';
import { errorMessage } from '../../shared/errorMessage.ts';

interface CheckRequest {
  id: number;
  text: string;
}

self.onmessage = (e: MessageEvent<CheckRequest>) => {
  const { id, text } = e.data;
  let reply;
  try {
    reply = { id, checked: checkText(text) };
  } catch (err) {
    reply = { id, error: errorMessage(err) };
  }
  (self as unknown as Worker).postMessage(reply);
};
