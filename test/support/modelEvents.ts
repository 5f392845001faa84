/** Reading a model client's event stream in tests: every event in order, and the output items it finished. */
import type { ModelEvent, ResponseItem } from '../../src/models/events.ts';

/** Every event of a stream, in order (the stream runs to its end). */
export async function collect(stream: AsyncIterable<ModelEvent>): Promise<ModelEvent[]> {
  const events: ModelEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

/** The items the stream finished (`item.done`), in order: what the transcript keeps. */
export const doneItems = (events: ModelEvent[]): ResponseItem[] =>
  events.flatMap((e) => (e.type === 'item.done' ? [e.item] : []));
