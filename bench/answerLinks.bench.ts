/**
 * The cost of judging a message's links (issue #42 part 3, src/agent/answerLinkCheck.ts), paid once per assistant
 * message that holds a URL, inside the write that stores it: the corpus built from a transcript of 100 tool
 * outputs of 10,000 characters (two sites), then five links judged — one carrying a value of the other site, one
 * shown verbatim by a page, one seen nowhere, two with long query strings of 20 parameters.
 */
import { judgeAnswerLinks, linkCorpus } from '../src/agent/answerLinkCheck.ts';
import type { ItemRecord } from '../src/storage/records.ts';
import type { BenchMetric } from './types.ts';

export const name = 'answerLinks';

const SAMPLES = 500;

function transcript(): ItemRecord[] {
  const page = 'lorem ipsum dolor sit amet 2024 '.repeat(156);
  const rec = (item: Record<string, unknown>, labels?: string[]): ItemRecord => ({
    conversationId: 'c',
    seq: 0,
    createdAt: 0,
    item,
    ...(labels ? { labels } : {}),
  });
  const out: ItemRecord[] = [
    rec({ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'compare my accounts' }] }),
  ];
  for (let i = 0; i < 100; i++) {
    const site = i % 2 ? 'https://bank.example' : 'https://blog.example';
    out.push(rec({ type: 'function_call', call_id: `c${i}`, name: 'dom__text', arguments: '{"tab_id":3}' }));
    out.push(
      rec(
        {
          type: 'function_call_output',
          call_id: `c${i}`,
          output: `${page} ACCT-${i}-7731 https://blog.example/p${i} ${page}`,
        },
        [site],
      ),
    );
  }
  return out;
}

const query = Array.from({ length: 20 }, (_, i) => `k${i}=value-${i}-abcdef`).join('&');
const ANSWER = [
  '[Verify](https://collector.example/v?d=ACCT-99-7731)',
  '[Post](https://blog.example/p40)',
  'https://elsewhere.example/x',
  `[A](https://shop.example/a?${query})`,
  `[B](https://shop.example/b?${query})`,
].join('\n');

export async function run(): Promise<BenchMetric[]> {
  const records = transcript();
  for (let i = 0; i < 50; i++) judgeAnswerLinks(ANSWER, linkCorpus(records));
  const times = new Float64Array(SAMPLES);
  for (let i = 0; i < SAMPLES; i++) {
    const t = performance.now();
    judgeAnswerLinks(ANSWER, linkCorpus(records));
    times[i] = performance.now() - t;
  }
  times.sort();
  const at = (p: number) => Math.round(times[Math.min(SAMPLES - 1, Math.floor(p * SAMPLES))]! * 1000) / 1000;
  return [
    { name: 'judge_message_p50', value: at(0.5), unit: 'ms', budget: 20 },
    { name: 'judge_message_p99', value: at(0.99), unit: 'ms', budget: 100 },
  ];
}
