/**
 * The config's state as every surface reports it — the panel's banner, the settings page, `ot.config`,
 * `ot.health`, a refused run — so they all say the same thing in the same words.
 */
import { formatProblem, type ConfigProblem } from './parse.ts';

export interface ConfigStatus {
  /** `invalid`: nothing is sent until it is fixed; `warnings`: unknown keys ignored; `ok`. */
  status: 'ok' | 'warnings' | 'invalid';
  version: number;
  problems: ConfigProblem[];
  warnings: ConfigProblem[];
}

export function configStatus(s: {
  version: number;
  problems: readonly ConfigProblem[];
  warnings: readonly ConfigProblem[];
}): ConfigStatus {
  return {
    status: s.problems.length ? 'invalid' : s.warnings.length ? 'warnings' : 'ok',
    version: s.version,
    problems: [...s.problems],
    warnings: [...s.warnings],
  };
}

export const CONFIG_INVALID_HEAD = "Otto's configuration does not validate, so nothing was sent.";

/** The refusal a run, a transform call or a server connection gives while the config has problems. */
export function configInvalidMessage(problems: readonly ConfigProblem[]): string {
  return `${CONFIG_INVALID_HEAD} Fix it in Settings:\n${problems.map(formatProblem).join('\n')}`;
}

/** The problems as `ot.config` / `ot.health` list them: `line L, column C: path: message`. */
export function problemLines(problems: readonly ConfigProblem[]): string[] {
  return problems.map(formatProblem);
}
