/**
 * The multi-round flows the in-process protocol tests share (tests/helpers/flows.ts is their end-to-end
 * twin), on the fixture `confirm_increment`: confirm, then increment the counter under a key of the test's own.
 */
import { expect } from "vitest";
import type { Exchange, Json, RequestOptions, TestClient } from "../../helpers/in-process";

export { CONFIRM, ELICITATION, OPAQUE_STATE_ERROR, uniqueKey } from "../../helpers/flows";
import { CONFIRM, ELICITATION, OPAQUE_STATE_ERROR } from "../../helpers/flows";

/** The fixtures, as the fixture build serves them. */
export const FIXTURES = { scanDirs: ["tests/fixtures"] };

/** Round one of confirm_increment: asserts it asks, and returns the sealed state. */
export async function askToIncrement(client: TestClient, key: string, options: RequestOptions = {}): Promise<string> {
  const first = await client.request(
    "tools/call",
    { name: "confirm_increment", arguments: { key } },
    { capabilities: ELICITATION, ...options },
  );
  expect(first.body.result?.resultType, JSON.stringify(first.body)).toBe("input_required");
  return first.body.result.requestState;
}

/** Round two of confirm_increment: the retry with `answers` and a (possibly tampered) state. */
export function retryIncrement(
  client: TestClient,
  key: string,
  requestState: unknown,
  options: RequestOptions & { answers?: Json } = {},
): Promise<Exchange> {
  const { answers = CONFIRM, ...rest } = options;
  return client.request(
    "tools/call",
    { name: "confirm_increment", arguments: { key }, inputResponses: answers, requestState },
    { capabilities: ELICITATION, ...rest },
  );
}

/** The stored value of the counter under `key`. */
export async function readCounter(client: TestClient, key: string, options: RequestOptions = {}): Promise<number> {
  return (await client.request("tools/call", { name: "read_counter", arguments: { key } }, options)).body.result
    .structuredContent.value;
}

export function expectOpaqueRejection(result: Exchange): void {
  expect(result.status).toBe(200);
  expect(result.body.error).toEqual(OPAQUE_STATE_ERROR);
}
