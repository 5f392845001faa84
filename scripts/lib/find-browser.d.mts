export const INSTALL_HINT: string;
export function findBrowser(env?: Record<string, string | undefined>): string | undefined;
