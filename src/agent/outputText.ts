/**
 * A function_call_output's `output` as text, for display and export: a string as it is, content parts (a
 * screenshot's `input_image`, text parts) as their text with `[image]` for each image.
 */
export function outputText(output: unknown): string {
  if (typeof output === 'string') return output;
  if (Array.isArray(output))
    return output
      .map((p: { type?: string; text?: string }) =>
        p?.type === 'input_text' ? (p.text ?? '') : p?.type === 'input_image' ? '[image]' : '',
      )
      .join('\n');
  return output === undefined || output === null ? '' : JSON.stringify(output);
}
