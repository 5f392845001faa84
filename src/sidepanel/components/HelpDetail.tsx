/** One tool in the help browser: signature, arguments, returns, examples, docs link, and "Try it". */
import { tryExample, type HelpToolDetail } from '../state/helpBrowser.ts';

type Param = HelpToolDetail['params'][number];

function defaultText(p: Param): string {
  if (p.required) return 'required';
  if (!p.hasDefault) return 'optional';
  return `default ${JSON.stringify(p.default)}`;
}

export function HelpDetail({
  detail,
  onTry,
  onBack,
}: {
  detail: HelpToolDetail;
  onTry(text: string): void;
  onBack(): void;
}) {
  return (
    <section class="help-detail" data-testid="help-detail" data-tool={detail.name} aria-labelledby="help-detail-title">
      <button type="button" class="link back" onClick={onBack} data-testid="help-back">
        ← Back
      </button>
      <h2 id="help-detail-title">
        <code>{detail.name}</code>
        <span class={`badge ${detail.readOnly ? 'ok' : 'warn'}`}>{detail.readOnly ? 'read-only' : 'acts'}</span>
      </h2>
      <pre class="signature" data-testid="help-signature">
        {detail.signature}
      </pre>
      <p class="help-description">{detail.description}</p>
      {detail.params.length > 0 && (
        <table class="help-params" data-testid="help-params">
          <caption class="visually-hidden">Arguments</caption>
          <thead>
            <tr>
              <th scope="col">Argument</th>
              <th scope="col">Type</th>
              <th scope="col">Description</th>
            </tr>
          </thead>
          <tbody>
            {detail.params.map((p) => (
              <tr key={p.name}>
                <td>
                  <code>{p.name}</code>
                </td>
                <td>
                  <code>{p.type}</code>
                  <div class="muted">{defaultText(p)}</div>
                </td>
                <td>{p.description ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {detail.returns && (
        <p>
          <strong>Returns:</strong> {detail.returns}
        </p>
      )}
      <h3>Example</h3>
      {(detail.examples.length ? detail.examples : [tryExample(detail)]).map((ex) => (
        <div class="help-example" key={ex}>
          <pre data-testid="help-example">{ex}</pre>
          <button type="button" onClick={() => onTry(ex)} aria-label={`Try ${ex}`}>
            Try
          </button>
        </div>
      ))}
      {detail.packInstructions && <p class="muted">Pack notes: {detail.packInstructions}</p>}
      <div class="actions">
        <button type="button" class="primary" data-testid="help-try" onClick={() => onTry(tryExample(detail))}>
          Try it
        </button>
        <a class="button-like" href={detail.docsUrl} target="_blank" rel="noopener noreferrer" data-testid="help-docs">
          Docs for the {detail.pack} pack ↗
        </a>
      </div>
      <p class="muted">Source: {detail.source}. Commands run through the same checks as the model's tool calls.</p>
    </section>
  );
}
