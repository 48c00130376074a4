/**
 * The example behind `connect_account`: a pretend third-party account linked through a
 * page of this server (URL-mode elicitation). Each attempt gets a random code that lives
 * ten minutes; the page at /connect/<code> completes it; the tool checks storage on the retry.
 *
 * A real deployment must also check, on that page, that the person in the browser is
 * the principal who started the flow (a login session), or a link forwarded to someone
 * else would connect their account to yours. See server/mcp/README.md, "Security".
 */
import { useStorage } from "nitropack/runtime";
import { base64UrlEncode, digestKeySegment } from "../mcp/kit";
import { expiringStore } from "./expiring-storage";

const ATTEMPT_TTL_SECONDS = 600;

interface ConnectAttempt {
  principal: string;
  done: boolean;
}

const attempts = expiringStore<ConnectAttempt>("mcp:connections:attempt");
const accounts = () => useStorage("mcp:connections:account");

/** Principals may hold any character (an OAuth issuer URL, say): their accounts are stored under a digest. */
export async function isConnected(principal: string): Promise<boolean> {
  return accounts().hasItem(await digestKeySegment(principal));
}

export async function startConnectAttempt(principal: string): Promise<string> {
  const code = base64UrlEncode(crypto.getRandomValues(new Uint8Array(18)));
  await attempts.set(code, { principal, done: false }, ATTEMPT_TTL_SECONDS);
  return code;
}

export async function getConnectAttempt(code: string): Promise<ConnectAttempt | null> {
  return /^[A-Za-z0-9_-]{24}$/.test(code) ? attempts.get(code) : null;
}

/** Called by the page: marks the attempt done and links the account. */
export async function completeConnectAttempt(code: string): Promise<ConnectAttempt | null> {
  const attempt = await getConnectAttempt(code);
  if (!attempt) return null;
  await attempts.set(code, { ...attempt, done: true }, ATTEMPT_TTL_SECONDS);
  await accounts().setItem(await digestKeySegment(attempt.principal), { connectedAt: new Date().toISOString() });
  return attempt;
}
