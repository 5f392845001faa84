import type { CallTarget } from '../shared/callTarget.ts';
import type { ProgramJournal } from '../shared/programJournal.ts';
import type { EffectKind } from '../shared/taskScope.ts';

/**
 * What the run loop needs of the tools: the narrow interface the registry + interceptor are adapted to. The loop
 * never imports the registry; the composition root (background/) passes an object of this shape.
 */

export interface ToolRunContext {
  /** Aborted when the user stops the run or the call times out. Tools should stop promptly. */
  signal: AbortSignal;
  conversationId: string;
  callId: string;
  /** The run's data-flow facts (flowFacts.ts); the host's guard checks and labels the call with them. */
  flow?: RunFlowFacts;
  /**
   * The decision for a call made *inside* this one (a code-mode program's calls, `web.fetch_many`'s fetches), taken
   * when it runs: resolves when it may run (no approval needed, allowed, or the user said yes), throws when the user
   * denied it. Absent: nested calls are not judged (the panel's own command line, where the user is the author).
   * `flow`: the nested call's data-flow guard, so that the guard's question is asked here too, on the same card.
   */
  approve?: (qualifiedName: string, args: Record<string, unknown>, flow?: NestedFlowCheck) => Promise<void>;
  /**
   * The steps this call's program completed in an earlier run (agent/stepJournal.ts): a program that runs again takes
   * their results instead of running them twice. The interpreter asks it before each step of its outermost program.
   */
  journal?: ProgramJournal;
}

/**
 * The data-flow side of a call inside a program, as the approval decision sees it. When the guard would ask, the
 * user gets one inline card (naming the action too when the target rule asks), and a yes lets the call's guard pass
 * exactly the pairs shown (the guard would otherwise stop the program and ask on the enclosing call).
 */
export interface NestedFlowCheck {
  /** The flow the guard would ask about (every refused pair, in one card's words), or undefined. */
  blocked(): Promise<{ block: FlowBlock; pairs: readonly FlowGrant[] } | undefined>;
  /** The user said yes: the guard lets `pairs` through for this call only. */
  allow(pairs: readonly FlowGrant[]): void;
}

/**
 * What the data-flow guard (src/tools/guard/) needs to know about the run, in plain data and functions — the loop
 * keeps the state, the host applies the rule.
 */
export interface RunFlowFacts {
  /** The run's origin set: labels of everything that entered the model's context. */
  readonly origins: readonly string[];
  /** Whether the user chose "always" for data from `from` going to `to`. */
  pairAllowed(from: string, to: string): boolean | Promise<boolean>;
  /** Whether `text` appears in a message the user wrote in this conversation. */
  userWrote(text: string): boolean;
  /** Whether `url` appeared verbatim in a tool output the model read, and the model did not write it itself. */
  seenUrl(url: string): boolean;
  /** Flows the user allowed once for this call. */
  readonly grants?: readonly FlowGrant[];
  /** Approvals policy `auto`: the user asked never to be asked; every flow runs (and is still labelled). */
  readonly allowAll?: boolean;
  /** Receives the labels of what the call read (added to the run's origin set with its output). */
  addLabels?(labels: readonly string[]): void;
}

export interface FlowGrant {
  readonly from: readonly string[];
  readonly to: string;
}

/** A flow the guard refuses without the user's approval, in the words the approval card uses. */
export interface FlowBlock {
  readonly from: readonly string[];
  readonly to: string;
  /** The URL or text about to leave. */
  readonly data: string;
  /** `Data read from bank.example may be sent to evil.example` */
  readonly sentence: string;
}

/** The tool host's judgement of one call, before it runs (issue #31). */
export interface CallAssessment {
  /** The arguments are invalid (unknown or wrong ones): the model gets this message and nothing runs or asks. */
  invalid?: string;
  /** Whether the call needs the user's approval (unless policy or an allowance covers its target's site). */
  destructive: boolean;
  /** What it really touches: allowances and the approval card use this, never the run's tab. */
  target?: CallTarget;
  /** The validated arguments (defaults applied): the approval card shows these, not the model's raw text. */
  args?: Record<string, unknown>;
  /** #42: the kinds of effect the call may have, judged from its target before it runs (tools/guard/effect.ts). */
  effects?: EffectKind[];
}

export interface ToolInfo {
  /** The qualified name (`dom.click`), shown to the user and passed to `run`. */
  qualifiedName: string;
  /** Read-only calls from one response may run concurrently; the others run one at a time. */
  readOnly: boolean;
}

export interface AgentToolHost {
  /** Tool definitions for the request, in the nested Chat-Completions shape, names already API-encoded. */
  definitions(): unknown[];
  /**
   * Text the model reads, in the names it calls: tool outputs are passed through this on their way into a request
   * (the transcript keeps them as they were). Optional; identity when absent.
   */
  forModel?(text: string): string;
  /**
   * Keeps a text for `ot.result` and returns its handle (#23: an output that leaves the request stays readable).
   * Optional: without it the stub says the output could not be kept.
   */
  keep?(text: string, tool: string): Promise<string | undefined>;
  /** Renews the expiry of kept texts (a run of their conversation is driven again: context/kept.ts). */
  renew?(handles: readonly string[]): Promise<void>;
  /** Deletes kept texts (their conversation was deleted). */
  forget?(handles: readonly string[]): Promise<void>;
  /** Resolves a name the model sent (API-encoded, or an alias) to a tool; undefined when unknown. */
  lookup(apiName: string): ToolInfo | undefined;
  /** The closest real tool names to an unknown one, best first, at most `n` (for the error sent to the model). */
  closest(name: string, n?: number): string[];
  /**
   * Whether this call needs the user's approval (typing into a password field, submitting a form, leaving the
   * origin, closing a tab...). May inspect the page; called just before the call would run.
   */
  isDestructive(qualifiedName: string, args: unknown, ctx?: { conversationId: string }): Promise<boolean> | boolean;
  /**
   * Plan first (#42 part 2): whether a step of `program` is in its plan — a read-only tool always is; another is when
   * the program's text writes a call to that tool with the literal arguments the step has. Optional: a host without
   * it has no plan check (every step is taken as planned).
   */
  inPlan?(program: string, qualifiedName: string, args: Readonly<Record<string, unknown>>): boolean;
  /**
   * Validates the call and resolves its target, then decides whether it is destructive — judged on the target (the
   * tab, element or URL it acts on). Hosts without it fall back to `isDestructive` and the run's tab origin.
   */
  assess?(
    qualifiedName: string,
    args: unknown,
    ctx: {
      conversationId: string;
      /** Describe the element even when the call itself would not ask. */ describe?: boolean;
    },
  ): Promise<CallAssessment>;
  /**
   * Runs the call through the interceptor. Resolves with the result (string or JSON-serialisable value); rejects on
   * invalid arguments (the interceptor's validation message) or a tool error.
   */
  run(qualifiedName: string, args: unknown, ctx: ToolRunContext): Promise<unknown>;
  /**
   * The data-flow guard's verdict on a call before it runs (undefined: it may run). Hosts without a guard omit it.
   * Also used to recognise a call stopped by the guard while running (`blockedFlow`).
   */
  checkFlow?(
    qualifiedName: string,
    args: unknown,
    ctx: { conversationId: string; flow: RunFlowFacts },
  ): Promise<FlowBlock | undefined>;
  /** The flow a call's error says the guard stopped (code mode stops inside a program), if any. */
  blockedFlow?(error: unknown): FlowBlock | undefined;
}
