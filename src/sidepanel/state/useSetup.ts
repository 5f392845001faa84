/** The setup facts the panel shows and obeys: is a key needed, where the next request goes, the config's state. */
import { useCallback, useRef, useState } from 'preact/hooks';
import type { RefObject } from 'preact';
import { effectiveConfig } from '../../config/edit.ts';
import { configStatus, type ConfigStatus } from '../../config/status.ts';
import { errorMessage } from '../../shared/errorMessage.ts';
import type { Request } from './request.ts';

export interface Setup {
  loaded: boolean;
  /** OPENAI_API_KEY is missing and the base URL is OpenAI's (a local server needs no key). */
  needsKey: boolean;
  /** Where the next request goes (empty while the config does not validate: then nothing is sent). */
  baseUrl: string;
  model: string;
  /** The stored config's state, as the worker reports it (`config.get`). */
  config: ConfigStatus;
}

const NO_SETUP: Setup = {
  loaded: false,
  needsKey: false,
  baseUrl: '',
  model: '',
  config: { status: 'ok', version: 0, problems: [], warnings: [] },
};

export interface SetupSlice {
  setup: Setup;
  /** The latest setup, for actions that must not wait for a render. */
  setupRef: RefObject<Setup>;
  /** Asks the worker again (`config.get`, `secrets.get_names`); undefined when it could not (the notice says why). */
  refreshSetup(): Promise<Setup | undefined>;
}

export function useSetup(
  req: Request,
  refreshVocabulary: () => Promise<void>,
  setNotice: (n: string | undefined) => void,
): SetupSlice {
  const [setup, setSetup] = useState<Setup>(NO_SETUP);
  const setupRef = useRef(setup);
  setupRef.current = setup;
  const refreshSetup = useCallback(async (): Promise<Setup | undefined> => {
    void refreshVocabulary();
    try {
      const [got, { names }] = await Promise.all([req({ type: 'config.get' }), req({ type: 'secrets.get_names' })]);
      const config = configStatus(got);
      // The worker's verdict decides; the text is parsed here only for where a valid config sends requests.
      const agent = config.status === 'invalid' ? undefined : effectiveConfig(got.yaml).agent;
      const next: Setup = {
        loaded: true,
        needsKey: isOpenAi(agent?.base_url) && !names.includes('OPENAI_API_KEY'),
        baseUrl: agent?.base_url ?? '',
        model: agent?.model ?? '',
        config,
      };
      setSetup(next);
      return next;
    } catch (e) {
      setNotice(errorMessage(e));
      return undefined;
    }
  }, [req, refreshVocabulary, setNotice]);
  return { setup, setupRef, refreshSetup };
}

function isOpenAi(baseUrl: string | undefined): boolean {
  try {
    return !!baseUrl && new URL(baseUrl).hostname.endsWith('openai.com');
  } catch {
    return false;
  }
}
