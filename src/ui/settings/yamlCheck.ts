/**
 * Checking the settings YAML: the size limit first (no need to parse what cannot be saved), then the parser's
 * problems. Shared by the editor's background thread (yamlCheck.worker.ts) and its fallback where no worker runs.
 */
import { checkYaml, type ConfigProblem } from '../../config/edit.ts';
import { CONFIG_MAX_CHARS, configTooLarge } from '../../shared/limits.ts';

export interface Checked {
  text: string;
  problems: ConfigProblem[];
  warnings: ConfigProblem[];
}

export function checkText(text: string): Checked {
  if (text.length > CONFIG_MAX_CHARS) {
    return { text, problems: [{ message: configTooLarge(text.length), line: 1, column: 1, path: '' }], warnings: [] };
  }
  return { text, ...checkYaml(text) };
}
