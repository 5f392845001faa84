/** Esc stops a run, or cancels a command, from anywhere in the chat view (not while the drawer is open). */
import { useEffect } from 'preact/hooks';

export function useEscapeStops(active: boolean, stop: () => Promise<unknown>, after: () => void): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && active) {
        e.preventDefault();
        void stop().then(after);
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [active, stop, after]);
}
