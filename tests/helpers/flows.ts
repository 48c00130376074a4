/**
 * The multi-round flows the protocol tests share, on the fixture `confirm_increment` (confirm, then
 * increment the counter under a key of the test's own), and the values every test compares against.
 */
import { expect } from "vitest";
import { post, type Json, type RpcOptions } from "./rpc";

/** Client capabilities: form-mode elicitation only. */
export const ELICITATION = { elicitation: { form: {} } };
/** The one answer to every refused requestState. */
export const OPAQUE_STATE_ERROR = { code: -32602, message: "Invalid or expired requestState" };
/** What a request that needs the store gets while the store fails (HTTP 503). */
export const STORAGE_UNAVAILABLE = { code: -32603, message: "Storage unavailable: try again shortly" };
/** "Yes" to confirm_increment's question. */
export const CONFIRM = { confirm: { action: "accept", content: { confirm: true } } };

/** A fresh key, so a test's counter is its own whatever ran before it. */
export const uniqueKey = (): string => `k-${crypto.randomUUID()}`;

/** Round one of confirm_increment: asserts it asks, and returns the sealed state. */
export async function askToIncrement(url: string, key: string, options: RpcOptions = {}): Promise<string> {
  const first = await post(
    url,
    "tools/call",
    { name: "confirm_increment", arguments: { key } },
    { capabilities: ELICITATION, ...options },
  );
  expect(first.body.result?.resultType, JSON.stringify(first.body)).toBe("input_required");
  return first.body.result.requestState;
}

/** Round two of confirm_increment: the retry with `answers` and a (possibly tampered) state. */
export function retryIncrement(
  url: string,
  key: string,
  requestState: unknown,
  options: RpcOptions & { answers?: Json } = {},
) {
  const { answers = CONFIRM, ...rest } = options;
  return post(
    url,
    "tools/call",
    { name: "confirm_increment", arguments: { key }, inputResponses: answers, requestState },
    { capabilities: ELICITATION, ...rest },
  );
}

/** The stored value of the counter under `key`. */
export async function readCounter(url: string, key: string, options: RpcOptions = {}): Promise<number> {
  const result = await post(url, "tools/call", { name: "read_counter", arguments: { key } }, options);
  return result.body.result.structuredContent.value;
}

export function expectOpaqueRejection(result: { status: number; body: Json }): void {
  expect(result.status).toBe(200);
  expect(result.body.error).toEqual(OPAQUE_STATE_ERROR);
}
