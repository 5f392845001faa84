/**
 * Library files replaced at build time by small stand-ins, matched on the resolved path of a library's own relative
 * imports. Each stand-in says why it is safe; bench/bundle.bench.ts measures what they save.
 */
export const LIBRARY_STUBS: { target: RegExp; file: string }[] = [
  // Ajv compiles with `new Function` (forbidden in MV3); Otto passes its own validator (~200 KB).
  { target: /@modelcontextprotocol\/sdk\/dist\/esm\/validation\/ajv-provider\.js$/, file: '../src/mcp/ajvStub.ts' },
  // OAuth for MCP servers; reached only with an authProvider, which Otto never passes (~17 KB).
  { target: /@modelcontextprotocol\/sdk\/dist\/esm\/client\/auth\.js$/, file: '../src/mcp/authStub.ts' },
  // openai SDK: stream helpers Otto never calls (it uses responses.create and chat.completions.create), and the API
  // namespaces the client constructs but Otto never uses (~70 KB together).
  {
    target:
      /\/openai\/lib\/(?:AssistantStream|ChatCompletionStream|ChatCompletionRunner|ChatCompletionStreamingRunner|responses\/ResponseStream)\.mjs$/,
    file: '../src/models/openaiUnused.ts',
  },
  {
    target:
      /\/openai\/resources\/(?:admin\/admin|beta\/beta|containers\/containers|evals\/evals|fine-tuning\/fine-tuning|skills\/skills|vector-stores\/vector-stores|webhooks\/webhooks|audio\/audio|batches|completions|conversations\/conversations|embeddings|files|graders\/graders|images|moderations|realtime\/realtime|uploads\/uploads|videos)\.mjs$/,
    file: '../src/models/openaiUnused.ts',
  },
];
