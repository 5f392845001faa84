/**
 * Asks the background thread (yamlCheck.worker.ts) to check a YAML text. The worker answers every request in order,
 * and every caller gets its answer: Save awaits its own check while the editor's debounced check may start after it
 * (when only the newest was answered, a Save right after an import waited forever). Callers drop answers they no
 * longer need. Where no worker can start, the text is checked on this thread.
 */
import { checkText, type Checked } from './yamlCheck.ts';
import { YAML_CHECK_WORKER_FILE } from './yamlCheckWorkerFile.ts';

type Reply = { id: number; checked: Checked } | { id: number; error: string };

export class YamlChecker {
  private worker: Worker | undefined;
  private failed = false;
  private next = 0;
  private readonly waiting = new Map<number, { resolve(c: Checked): void; reject(e: Error): void }>();

  /** The text's problems and warnings. */
  check(text: string): Promise<Checked> {
    const worker = this.start();
    if (!worker) return Promise.resolve(checkText(text));
    const id = ++this.next;
    return new Promise<Checked>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      worker.postMessage({ id, text });
    }).catch(() => checkText(text));
  }

  dispose(): void {
    this.worker?.terminate();
    this.worker = undefined;
  }

  private start(): Worker | undefined {
    if (this.worker || this.failed) return this.worker;
    try {
      // By its built path, not `new URL('./yamlCheck.worker.ts', import.meta.url)`: that form makes vite bundle the
      // worker again with its own copies of yaml, zod and the config schema. (Under `npm run dev` no such file is
      // served: the check then runs on this thread.)
      const w = new Worker(`/${YAML_CHECK_WORKER_FILE}`, { type: 'module' });
      w.onmessage = (e: MessageEvent<Reply>) => {
        const wait = this.waiting.get(e.data.id);
        if (!wait) return;
        this.waiting.delete(e.data.id);
        if ('error' in e.data) wait.reject(new Error(e.data.error));
        else wait.resolve(e.data.checked);
      };
      w.onerror = () => {
        // A worker that cannot run: from now on this thread checks (slower on a huge config, never wrong).
        this.failed = true;
        this.worker = undefined;
        const waits = [...this.waiting.values()];
        this.waiting.clear();
        w.terminate();
        for (const wait of waits) wait.reject(new Error('The background check stopped; checking here.'));
      };
      this.worker = w;
    } catch {
      this.failed = true;
    }
    return this.worker;
  }
}
