/** The panel's notice when a server changes a tool or adds one (the settings show the difference). */
export function reviewNotice(server: string, tool: string, kind: 'changed' | 'new'): string {
  return kind === 'changed'
    ? `The MCP server '${server}' changed its tool ${server}.${tool} since you approved it. It is off until you review the change in Settings → MCP servers.`
    : `The MCP server '${server}' added a tool, ${server}.${tool}. It is off until you turn it on in Settings → MCP servers.`;
}
