/**
 * The stored config's state, before any run: when it does not validate, every problem at its line (as the settings
 * editor shows it) and the way to Settings — nothing is sent until it is fixed; when it has keys this version does
 * not know, a warning naming them (they are ignored, and kept in the text).
 */
import { useState } from 'preact/hooks';
import type { ConfigStatus } from '../../config/status.ts';
import { formatProblem } from '../../config/parse.ts';

export function ConfigBanner({ config, openSettings }: { config: ConfigStatus; openSettings(): void }) {
  const [dismissed, setDismissed] = useState('');
  const warningKey = config.warnings.map(formatProblem).join('\n');
  if (config.status === 'invalid') {
    return (
      <div class="banner error" role="alert" data-testid="config-banner">
        <div>
          <strong>Otto's settings do not validate, so nothing is sent to any model or server.</strong> Fix{' '}
          {config.problems.length === 1 ? 'this' : 'these'} in Settings:
          <ul class="problems" data-testid="config-problems">
            {config.problems.map((p, i) => (
              <li key={i}>{formatProblem(p)}</li>
            ))}
          </ul>
          {config.warnings.length > 0 && (
            <ul class="problems muted" data-testid="config-warnings">
              {config.warnings.map((p, i) => (
                <li key={i}>{formatProblem(p)}</li>
              ))}
            </ul>
          )}
        </div>
        <div class="actions">
          <button type="button" class="primary" data-testid="config-open-settings" onClick={openSettings}>
            Open settings
          </button>
        </div>
      </div>
    );
  }
  if (config.warnings.length && dismissed !== warningKey) {
    return (
      <div class="banner warn" role="status" data-testid="config-warning">
        <div>
          Ignored {config.warnings.length === 1 ? 'a setting' : 'settings'} this version of Otto does not know (kept in
          your config):
          <ul class="problems" data-testid="config-warnings">
            {config.warnings.map((p, i) => (
              <li key={i}>{formatProblem(p)}</li>
            ))}
          </ul>
        </div>
        <div class="actions">
          <button type="button" data-testid="config-warning-settings" onClick={openSettings}>
            Open settings
          </button>
          <button type="button" onClick={() => setDismissed(warningKey)} aria-label="Dismiss warning">
            Dismiss
          </button>
        </div>
      </div>
    );
  }
  return null;
}
