/** How the store's slices talk to the worker: one typed request over the panel port, answered with its reply type. */
import type { PanelRequestType, RequestBody } from '../../shared/messages.ts';
import type { Reply } from '../../port/panelReplies.ts';

export type Request = <K extends PanelRequestType>(body: RequestBody<K>) => Promise<Reply<K>>;
