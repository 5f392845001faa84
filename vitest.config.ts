import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    environment: 'node',
    setupFiles: ['test/support/setup.ts'],
    testTimeout: 20_000,
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/**/*.test.ts'] } },
      // The agent-core suites again over the Chat Completions wire (issue #18): scripted events go through chat
      // chunks and the real chat mapper (test/support/chatWire.ts).
      {
        extends: true,
        test: { name: 'agent-chat', include: ['test/agent/**/*.test.ts'], env: { OTTO_TEST_WIRE: 'chat' } },
      },
    ],
  },
});
