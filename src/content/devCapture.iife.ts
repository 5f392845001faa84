/**
 * Registered for one page load of a tab a run works on (page/pageDevCapture.ts), at `document_start` in the
 * page's MAIN world, before any of the page's own scripts run: installs the console and request capture (#19) and
 * the listener registry that finds controls clickable only by a listener (#14, content/listenerRegistry.ts) — only
 * in a load the worker marked as the watched tab's (pageStartGate.ts): another tab loading the same path meanwhile
 * gets the script too, and there it does nothing.
 */
import { devCapture } from './contentDevCapture.ts';
import { LISTENER_REQUEST, listenerRegistry } from './listenerRegistry.ts';
import { pageStartMarked } from './pageStartGate.ts';

if (pageStartMarked()) {
  devCapture('load');
  listenerRegistry('load', LISTENER_REQUEST);
}
