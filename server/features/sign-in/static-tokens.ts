/**
 * Static bearer tokens (`NITRO_MCP_AUTH_TOKENS=alice:token1,bob:token2`).
 *
 * Tokens are compared as SHA-256 digests, in constant time, against every configured
 * entry (no early exit), so neither timing nor the number of entries tells an attacker
 * how close a guess was.
 */
import { utf8Encode } from "../../mcp/kit";

/** Compares two byte arrays in time that depends only on the length of the first (used on fixed-size digests). */
function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  let diff = a.length ^ b.length;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ (b[i % (b.length || 1)] ?? 0);
  return diff === 0;
}

export interface TokenTable {
  /** The principal a presented bearer token names, or null. */
  principalFor(token: string): Promise<string | null>;
}

const sha256 = async (text: string) => new Uint8Array(await crypto.subtle.digest("SHA-256", utf8Encode(text)));

export function createTokenTable(entries: readonly { principal: string; token: string }[]): TokenTable {
  const digests = Promise.all(
    entries.map(async (entry) => ({ principal: entry.principal, digest: await sha256(entry.token) })),
  );
  return {
    async principalFor(token) {
      const presented = await sha256(token);
      let principal: string | null = null;
      for (const entry of await digests) {
        if (constantTimeEqual(presented, entry.digest) && principal === null) principal = entry.principal;
      }
      return principal;
    },
  };
}
