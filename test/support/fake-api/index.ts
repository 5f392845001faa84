/** The fake Responses API: `startFakeApi()`, its turn script and ready-made faults. See README.md here. */
export { startFakeApi, type FakeApi, type FakeApiOptions } from './server.ts';
export type { ChatTurn } from './chatCompletions.ts';
export {
  faults,
  openAiError,
  type FakeRequestBody,
  type RecordedRequest,
  type ScriptedCall,
  type Turn,
  type TurnMatcher,
} from './turns.ts';
export { buildResponseEvents, splitText, type WireEvent } from './responseEvents.ts';
