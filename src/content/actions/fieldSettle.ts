/**
 * Between a form's fields (#24): when the next field must wait for the page to render the last one's change.
 *
 * A field's visibility, click and focus checks read layout. Right after a write that made the layout due, such a read
 * forces it inside Otto's task (a 10,000-row table: the whole table, once per field), so a field waits for the
 * page's next frame and the browser lays the change out in its own rendering step. That wait is needed only after a
 * write that can have moved something: typed text and chosen options always can; a checkbox or radio click only when
 * the page changed its DOM in answer. After a click that changed nothing but the control's state the next field runs in
 * the same task, with no yield to the browser: on the 50,000-row table each yield there let a rendering step of
 * 250-450 ms CPU run (its pre-paint walk of the whole page), then one of 340-440 ms to finish its commit, which a page
 * setting the same fields in one go pays once.
 */
import { knownRoots } from '../flatTree.ts';
import { afterNextFrame } from '../slices.ts';

export interface FieldSettle {
  /** Waits, before the next field, for what the last one's write needs (`checked`: it only set a checkbox/radio). */
  next(checked: boolean): Promise<void>;
  stop(): void;
}

const MICROTASK_TURNS = 3;

/**
 * Lets the page's microtasks run (frameworks render a click's state there): a few turns, not a task, because any task
 * boundary lets the browser run the rendering step the click made due (its pre-paint walk: the whole cost to skip).
 */
async function microtaskTurns(): Promise<void> {
  for (let i = 0; i < MICROTASK_TURNS; i++) await Promise.resolve();
}

export function fieldSettle(): FieldSettle {
  // Records reach the callback at the next microtask checkpoint, so a change is kept as a flag.
  let changed = false;
  const observer = new MutationObserver(() => (changed = true));
  const opts = { subtree: true, childList: true, attributes: true, characterData: true };
  observer.observe(document, opts);
  for (const root of knownRoots) observer.observe(root, opts);
  return {
    async next(checked) {
      if (checked) {
        // The page may answer the click in a microtask; what it does in a later task comes after the next field,
        // as with a page that sets its fields in one go (and as fill_form did before it waited for frames).
        await microtaskTurns();
        if (!observer.takeRecords().length && !changed) return;
      }
      await afterNextFrame();
      observer.takeRecords();
      changed = false;
    },
    stop() {
      observer.disconnect();
    },
  };
}
