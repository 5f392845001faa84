/**
 * Registered for one page load of a tab a run works on (page/devCapture.ts), at `document_start` in the
 * page's MAIN world, before any of the page's own scripts run: installs the console and request capture (#19) and
 * the listener registry that finds controls clickable only by a listener (#14, content/listenerRegistry.ts).
 */
import { devCapture } from './devCapture.ts';
import { LISTENER_REQUEST, listenerRegistry } from './listenerRegistry.ts';

devCapture('load');
listenerRegistry('load', LISTENER_REQUEST);
