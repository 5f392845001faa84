/**
 * Seeds OPENAI_API_KEY (secrets), OPENAI_BASE_URL and OTTO_MODEL (config) into the extension's storage, merging
 * into what the profile already has. Runs inside the service worker; returns the names seeded (never the values).
 */
export async function seedFromEnv(worker, env) {
  const wanted = {
    apiKey: env.OPENAI_API_KEY || undefined,
    baseUrl: env.OPENAI_BASE_URL || undefined,
    model: env.OTTO_MODEL || undefined,
  };
  if (!wanted.apiKey && !wanted.baseUrl && !wanted.model) return [];
  return worker.evaluate(async (w) => {
    const seed = globalThis.otto?.seed;
    if (!seed) throw new Error('this build of Otto cannot be seeded (otto.seed missing)');
    return seed(w);
  }, wanted);
}
