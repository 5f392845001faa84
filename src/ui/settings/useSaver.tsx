import { useState } from 'preact/hooks';
import { errorMessage } from '../../shared/errorMessage.ts';

export type Outcome = { kind: 'ok' | 'error'; text: string } | undefined;

/** Runs a save, tracking busy state and the outcome message to show next to the form. */
export function useSaver(): {
  busy: boolean;
  outcome: Outcome;
  run(fn: () => Promise<string | void>): Promise<boolean>;
  setOutcome(o: Outcome): void;
} {
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>();
  const run = async (fn: () => Promise<string | void>) => {
    setBusy(true);
    setOutcome(undefined);
    try {
      const text = await fn();
      setOutcome({ kind: 'ok', text: text || 'Saved.' });
      return true;
    } catch (e) {
      setOutcome({ kind: 'error', text: errorMessage(e) });
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { busy, outcome, run, setOutcome };
}

export function OutcomeLine({ outcome, testId }: { outcome: Outcome; testId: string }) {
  if (!outcome) return null;
  return (
    <p
      class={outcome.kind === 'ok' ? 'ok-text' : 'error-text'}
      role={outcome.kind === 'ok' ? 'status' : 'alert'}
      data-testid={testId}
      data-ok={outcome.kind === 'ok'}
    >
      {outcome.text}
    </p>
  );
}
