/**
 * #43's fixture tasks run with the scripted model's minimal solution (e2e/support/pageTasks.ts, the scripts
 * bench/pageTasks.bench.ts counts in `npm run bench`), in the default tool set: each finishes (the page's state and
 * what the model read), in exactly its minimal number of model requests, and calls no ot.help — everything it needs
 * is known from the first request. The exact texts of each tool's output are asserted by the specs of each part
 * (reach, pointer, files); this spec holds the count.
 */
import { test, expect, panelRequest } from './support/fixtures.ts';
import { connectedTest } from './support/agent.ts';
import { pageTasks } from './support/pageTasks.ts';
import { runPageTask } from './support/runPageTask.ts';
import { FIXED_INPUT_BUDGET } from '../test/support/fixedInput.ts';
import { tabIdFor } from './support/tabs.ts';

test.beforeEach(({ fakeApi }) => fakeApi.reset());

for (const task of pageTasks()) {
  connectedTest(
    `${task.name}: finished in its minimal ${task.budget} model requests, no discovery request`,
    async ({ context, panel, fakeApi, pages }) => {
      await panelRequest(panel, { type: 'files.delete', name: 'report.pdf' });
      const run = await runPageTask(task, {
        context,
        api: fakeApi,
        pages,
        request: (body) => panelRequest(panel, body),
        tabId: (url) => tabIdFor(panel, url),
      });
      expect(run.status).toBe('completed');
      expect(run.unfinished).toBeUndefined();
      expect(run.called).toEqual(task.calls);
      expect(run.requests).toBe(task.budget);
      // Every request carried the default set's fixed input, within #43's budget.
      expect(Math.max(...run.fixedInput)).toBeLessThanOrEqual(FIXED_INPUT_BUDGET);
    },
  );
}
