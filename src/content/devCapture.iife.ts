/**
 * Registered for one page load of a tab a run works on (background/devCapture.ts), at `document_start` in the
 * page's MAIN world: installs the console and request capture before any of the page's own scripts run (#19).
 */
import { devCapture } from './devCapture.ts';

devCapture('load');
