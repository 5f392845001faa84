/** The agent loop's public surface, for the composition root (background/). */
export { AgentRunner, RunBusyError, NoPendingApprovalError, NothingToResumeError } from './runner.ts';
export type { AgentRunnerOptions, AgentConfigView } from './runner.ts';
export type { AgentEvent, AgentEventListener } from './events.ts';
export type { AgentToolHost, FlowBlock, FlowGrant, RunFlowFacts, ToolInfo, ToolRunContext } from './toolHost.ts';
export type { Timers } from './timing.ts';
export { originAllowed, originMatches } from './approvals.ts';
export { isLocalItem, buildInput, ABORTED_OUTPUT } from './transcript.ts';
export type { NoteItem } from './transcript.ts';
export type {
  RunState,
  RunStatus,
  StopReason,
  RunError,
  PendingCall,
  PendingApproval,
  UsageTotals,
} from '../storage/runRecords.ts';
