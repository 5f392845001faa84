/**
 * What the panel store does when asked: the run's actions (send, stop, resume, retry, approve, deny) and the
 * conversation's (new, open, rename, delete, share a tab, export). Each goes to the worker over the panel port; a
 * failure becomes the notice (or, for a config that does not validate, a fresh look at the config).
 */
import type { RefObject } from 'preact';
import { downloadText } from '../../ui/download.ts';
import type { ChatAction, ChatState } from './chat.ts';
import { dropMeta, saveCurrent } from './conversationMeta.ts';
import type { CommandsSlice } from './useCommands.ts';
import type { Request } from './request.ts';
import type { Setup } from './useSetup.ts';

export interface StoreActions {
  /** What the composer sends: a command runs directly (no model), anything else goes to the chat. */
  submit(text: string): Promise<boolean>;
  send(text: string): Promise<boolean>;
  stop(): Promise<void>;
  resume(): Promise<void>;
  retry(): Promise<void>;
  approve(scope: 'once' | 'site' | 'task'): Promise<void>;
  deny(): Promise<void>;
  /** Shares the tab the user is looking at with the open conversation (a new one if none); resolves with what happened. */
  shareTab(): Promise<string>;
  newConversation(): void;
  open(id: string): void;
  rename(id: string, title: string): Promise<void>;
  remove(id: string): Promise<void>;
  exportConversation(format: 'markdown' | 'json'): Promise<void>;
}

export interface StoreContext {
  req: Request;
  dispatch(a: ChatAction): void;
  chatRef: RefObject<ChatState>;
  setupRef: RefObject<Setup>;
  current: RefObject<string | undefined>;
  commands: CommandsSlice;
  /** Runs a request; a failure becomes the notice. */
  guarded(fn: () => Promise<unknown>): Promise<void>;
  setNotice(n: string | undefined): void;
  select(id: string | undefined): void;
  refreshSetup(): Promise<Setup | undefined>;
  refreshConversations(): Promise<void>;
}

export function storeActions(ctx: StoreContext): StoreActions {
  return { ...runActions(ctx), ...conversationActions(ctx) };
}

const conversationOf = (ctx: StoreContext) => ctx.chatRef.current.conversationId;

/** The open conversation, created (and adopted by the scratch command cards) when there is none yet. */
async function ensureConversation(ctx: StoreContext): Promise<string> {
  const existing = conversationOf(ctx);
  if (existing) return existing;
  const rec = await ctx.req({ type: 'conversations.create' });
  ctx.current.current = rec.id;
  saveCurrent(rec.id);
  ctx.commands.adopt(rec.id);
  ctx.dispatch({ type: 'loaded', conversationId: rec.id, items: [], active: false });
  return rec.id;
}

function runActions(ctx: StoreContext) {
  const { req, guarded, commands } = ctx;
  const id = () => conversationOf(ctx);
  const send = async (text: string): Promise<boolean> => {
    // A config that does not validate: no run at all; the banner says what is wrong (re-checked, it may be fixed).
    if (ctx.setupRef.current.config.status === 'invalid') {
      const fresh = await ctx.refreshSetup();
      if (!fresh || fresh.config.status === 'invalid') return false;
    }
    let ok = false;
    await guarded(async () => {
      const conversationId = await ensureConversation(ctx);
      await req({ type: 'chat.send', conversationId, text });
      ok = true;
      void ctx.refreshConversations();
    });
    return ok;
  };
  const approval = () => {
    const a = ctx.chatRef.current.approval;
    return a && id() ? { conversationId: id()!, callId: a.callId } : undefined;
  };
  return {
    async submit(text: string) {
      if ((await commands.classify(text)) === 'chat') return send(text);
      ctx.setNotice(undefined);
      const items = ctx.chatRef.current.items;
      void commands.run(text, { conversationId: id(), afterSeq: items.length ? items[items.length - 1]!.seq : -1 });
      return true;
    },
    send,
    stop: () => guarded(async () => id() && (await req({ type: 'chat.stop', conversationId: id()! }))),
    resume: () => guarded(async () => id() && (await req({ type: 'chat.resume', conversationId: id()! }))),
    retry: () => guarded(async () => id() && (await req({ type: 'chat.retry', conversationId: id()! }))),
    approve: (scope: 'once' | 'site' | 'task') =>
      guarded(async () => {
        const a = approval();
        if (a) await req({ type: 'chat.approve', ...a, scope });
      }),
    deny: () =>
      guarded(async () => {
        const a = approval();
        if (a) await req({ type: 'chat.deny', ...a });
      }),
  };
}

function conversationActions(ctx: StoreContext) {
  const { req, guarded, commands, select, refreshConversations } = ctx;
  const id = () => conversationOf(ctx);
  return {
    async shareTab() {
      const conversationId = await ensureConversation(ctx);
      const { tab } = await req({ type: 'tabs.share', conversationId });
      void refreshConversations();
      return `Shared '${tab.title || 'Untitled tab'}' with Otto.`;
    },
    newConversation: () => {
      commands.forget(undefined);
      select(undefined);
    },
    open: (cid: string) => select(cid),
    rename: (cid: string, title: string) =>
      guarded(async () => {
        await req({ type: 'conversations.rename', conversationId: cid, title });
        await refreshConversations();
      }),
    remove: (cid: string) =>
      guarded(async () => {
        await req({ type: 'conversations.delete', conversationId: cid });
        dropMeta(cid);
        commands.forget(cid);
        if (cid === id()) select(undefined);
        await refreshConversations();
      }),
    exportConversation: (format: 'markdown' | 'json') =>
      guarded(async () => {
        if (!id()) return;
        const file = await req({ type: 'conversations.export', conversationId: id()!, format });
        downloadText(file.filename, file.mimeType, file.text);
      }),
  };
}
