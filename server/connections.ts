/**
 * The example behind `connect_account`: a pretend third-party account linked through a
 * page of this server (URL-mode elicitation). Each attempt gets a random, short-lived
 * code; the page at /connect/<code> completes it; the tool checks storage on the retry.
 *
 * A real deployment must also check, on that page, that the person in the browser is
 * the principal who started the flow (a login session), or a link forwarded to someone
 * else would connect their account to yours. See README, "URL mode".
 */
import { useStorage } from "nitropack/runtime";
import { base64UrlEncode } from "./mcp/encoding";

const CODE_TTL_SECONDS = 600;

interface ConnectAttempt {
  principal: string;
  done: boolean;
}

const storage = () => useStorage("mcp:connections");

export async function isConnected(principal: string): Promise<boolean> {
  return storage().hasItem(`account:${principal}`);
}

export async function startConnectAttempt(principal: string): Promise<string> {
  const code = base64UrlEncode(crypto.getRandomValues(new Uint8Array(18)));
  await storage().setItem<ConnectAttempt>(`attempt:${code}`, { principal, done: false }, { ttl: CODE_TTL_SECONDS });
  return code;
}

export async function getConnectAttempt(code: string): Promise<ConnectAttempt | null> {
  if (!/^[A-Za-z0-9_-]{24}$/.test(code)) return null;
  return storage().getItem<ConnectAttempt>(`attempt:${code}`);
}

/** Called by the page: marks the attempt done and links the account. */
export async function completeConnectAttempt(code: string): Promise<ConnectAttempt | null> {
  const attempt = await getConnectAttempt(code);
  if (!attempt) return null;
  await storage().setItem<ConnectAttempt>(`attempt:${code}`, { ...attempt, done: true }, { ttl: CODE_TTL_SECONDS });
  await storage().setItem(`account:${attempt.principal}`, { connectedAt: new Date().toISOString() });
  return attempt;
}

/** Checked on the retry: the attempt must belong to this principal and be done. */
export async function isConnectAttemptDone(code: string, principal: string): Promise<boolean> {
  const attempt = await getConnectAttempt(code);
  return !!attempt && attempt.principal === principal && attempt.done;
}
