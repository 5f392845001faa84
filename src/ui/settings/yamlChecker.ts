/**
 * Asks the background thread (yamlCheck.worker.ts) to check a YAML text. Only the newest request is answered: an
 * older one still running is superseded. Where no worker can start, the text is checked on this thread.
 */
import { checkText, type Checked } from './yamlCheck.ts';
import { YAML_CHECK_WORKER_FILE } from './yamlCheckWorkerFile.ts';

type Reply = { id: number; checked: Checked } | { id: number; error: string };

export class YamlChecker {
  private worker: Worker | undefined;
  private failed = false;
  private next = 0;
  private waiting: { id: number; resolve(c: Checked): void; reject(e: Error): void } | undefined;

  /** The text's problems and warnings; a request superseded by a newer one never settles (its caller is gone). */
  check(text: string): Promise<Checked> {
    const worker = this.start();
    if (!worker) return Promise.resolve(checkText(text));
    const id = ++this.next;
    return new Promise<Checked>((resolve, reject) => {
      this.waiting = { id, resolve, reject };
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
        const wait = this.waiting;
        if (!wait || wait.id !== e.data.id) return;
        this.waiting = undefined;
        if ('error' in e.data) wait.reject(new Error(e.data.error));
        else wait.resolve(e.data.checked);
      };
      w.onerror = () => {
        // A worker that cannot run: from now on this thread checks (slower on a huge config, never wrong).
        this.failed = true;
        this.worker = undefined;
        const wait = this.waiting;
        this.waiting = undefined;
        w.terminate();
        wait?.reject(new Error('The background check stopped; checking here.'));
      };
      this.worker = w;
    } catch {
      this.failed = true;
    }
    return this.worker;
  }
}
