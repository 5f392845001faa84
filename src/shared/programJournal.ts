/**
 * A code-mode program's journal as both sides see it (agent/stepJournal.ts keeps it with the call; the interpreter in
 * tools/packs/ot/program.ts asks it before each step): one shape, so the run loop and the tools, which may not import
 * each other, cannot drift apart.
 */

/** A program step as the journal answers for it: its earlier result, or a way to keep this run's. */
export type JournalStep =
  | { kept: true; value: unknown; labels: readonly string[] }
  | {
      kept: false;
      /** The step completed: kept (an action's at once, written to the store: see `step`), else on the next write. */
      record(value: unknown, labels: readonly string[], readOnly: boolean): Promise<void>;
      /** The step failed: it is not running any more (nothing is kept, so a re-run runs it). */
      failed(): void;
      /** The journal of a program this step runs (an `ot.run` step): its steps are kept and reused the same way. */
      inner: ProgramJournal;
    };

/** The steps of a program a call runs (its own, or one a step of it runs), by their place in its run. */
export interface ProgramJournal {
  /**
   * The program's next step (steps are numbered in the order they are asked for). A step that may act (`readOnly`
   * false) is written to the store as running before this resolves: a worker that dies during it leaves it named.
   */
  step(name: string, args: Record<string, unknown>, line: number, readOnly: boolean): Promise<JournalStep>;
}
