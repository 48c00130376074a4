/**
 * Every request this server makes to the authorization server (its metadata, its keys, token
 * introspection) goes through here, so that a failing issuer is never mistaken for a bad token and is
 * never hammered by the requests it makes fail:
 *
 * - an answer counts only if it comes within 5 s, is 2xx, is at most MAX_ANSWER_BYTES of JSON nested at
 *   most MAX_JSON_DEPTH deep, is a JSON object, and passes the caller's check; anything else
 *   (unreachable, a hang, a 5xx, `null`, bad JSON, an endless body) is a failure of the issuer;
 * - after a failure, that URL is not asked again for BACKOFF_SECONDS (after a 429, for as long as its
 *   Retry-After asks, at most MAX_RETRY_AFTER_SECONDS): callers get IssuerUnavailableError at once,
 *   whose Retry-After is the back-off left;
 * - except that a POST's 4xx (429 aside) is thrown as an IssuerRefusal and starts no back-off: a POST
 *   carries one caller's input (the token to introspect), so its refusal may be about that input alone,
 *   and one caller must not be able to make the issuer unavailable for all the others. What each
 *   refusal means is the caller's to decide (introspection-refusal.ts). A GET carries nothing from a
 *   caller, so any status but 2xx there is the issuer's failure;
 * - concurrent GETs of one URL share one fetch. Each waiter is bounded by its own timer, since on
 *   some runtimes a fetch belongs to the request that started it and is cancelled with it.
 */
import { MAX_JSON_DEPTH, isPlainObject, nestsDeeperThan } from "../../mcp/kit";
import { IssuerUnavailableError } from "./auth-error";

const FETCH_TIMEOUT_MS = 5000;
/** Metadata, a key set or an introspection answer is a few kilobytes; anything past this is not one. */
const MAX_ANSWER_BYTES = 256 * 1024;
export const BACKOFF_SECONDS = 5;
/** However long a 429 asks for, the issuer is asked again after this: one answer cannot shut sign-in for longer. */
const MAX_RETRY_AFTER_SECONDS = 60;

/** The issuer refused one request (a POST's 4xx, 429 aside): an answer about that request, not an outage. */
export class IssuerRefusal extends Error {
  override name = "IssuerRefusal";
  constructor(
    readonly url: string,
    readonly status: number,
    /** The OAuth `error` code of its body (RFC 6749 §5.2), when it has one. */
    readonly error: string | undefined,
  ) {
    super(`${url}: HTTP ${status}${error ? ` (${error})` : ""}`);
  }
}

/** The issuer asked to be left alone (429) for `seconds`. */
class SlowDown extends Error {
  constructor(readonly seconds: number) {
    super(`HTTP 429, asked to wait ${seconds} s`);
  }
}

const failures = new Map<string, { until: number; reason: string }>();
const inFlight = new Map<string, { deadline: number; answer: Promise<unknown> }>();

const kindOf = (value: unknown) => (value === null ? "null" : Array.isArray(value) ? "an array" : `a ${typeof value}`);

/** The body as text, read no further than MAX_ANSWER_BYTES. */
async function boundedText(response: Response): Promise<string> {
  const tooLarge = () => new Error(`the answer is larger than ${MAX_ANSWER_BYTES} bytes`);
  if (Number(response.headers.get("content-length")) > MAX_ANSWER_BYTES) {
    await response.body?.cancel();
    throw tooLarge();
  }
  if (!response.body) return "";
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    size += read.value.byteLength;
    if (size > MAX_ANSWER_BYTES) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(read.value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

function parseAnswer(text: string): unknown {
  const json: unknown = JSON.parse(text);
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) throw new Error(`the answer nests deeper than ${MAX_JSON_DEPTH} levels`);
  return json;
}

/** Retry-After (seconds or an HTTP date) in whole seconds, within 1..MAX_RETRY_AFTER_SECONDS; BACKOFF_SECONDS without one. */
function retryAfterOf(response: Response): number {
  const value = response.headers.get("retry-after")?.trim() ?? "";
  const seconds = /^\d+$/.test(value) ? Number(value) : Math.ceil((Date.parse(value) - Date.now()) / 1000);
  if (!value || Number.isNaN(seconds)) return BACKOFF_SECONDS;
  return Math.min(Math.max(seconds, 1), MAX_RETRY_AFTER_SECONDS);
}

/** The `error` code of a refusal's body, if it is an OAuth error object (read within the same bounds as any answer). */
async function oauthErrorOf(response: Response): Promise<string | undefined> {
  try {
    const json = parseAnswer(await boundedText(response));
    return isPlainObject(json) && typeof json.error === "string" ? json.error.slice(0, 100) : undefined;
  } catch {
    return undefined;
  }
}

/** One exchange with the issuer: the checked answer; throws an IssuerRefusal, a SlowDown, or any other error for a failure. */
async function exchange<T>(url: string, check: (json: Record<string, unknown>) => T, init: RequestInit): Promise<T> {
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
  if (response.ok) {
    const json = parseAnswer(await boundedText(response));
    if (!isPlainObject(json)) throw new Error(`the answer is ${kindOf(json)}, not a JSON object`);
    return check(json);
  }
  if (response.status === 429) {
    await response.body?.cancel();
    throw new SlowDown(retryAfterOf(response));
  }
  if (init.method === "POST" && response.status >= 400 && response.status < 500)
    throw new IssuerRefusal(url, response.status, await oauthErrorOf(response));
  await response.body?.cancel();
  throw new Error(`HTTP ${response.status}`);
}

async function fetchOnce<T>(url: string, check: (json: Record<string, unknown>) => T, init: RequestInit): Promise<T> {
  try {
    const value = await exchange(url, check, init);
    failures.delete(url);
    return value;
  } catch (error) {
    if (error instanceof IssuerRefusal) throw error;
    const { name, message } = error as Error;
    const seconds = error instanceof SlowDown ? error.seconds : BACKOFF_SECONDS;
    const reason = `${url}: ${name === "TimeoutError" ? `no answer within ${FETCH_TIMEOUT_MS / 1000} s` : message}`;
    failures.set(url, { until: Date.now() + seconds * 1000, reason });
    throw new IssuerUnavailableError(reason, seconds);
  }
}

/** Waits for a fetch another request started, at most until `deadline`. */
function waitFor<T>(answer: Promise<T>, deadline: number, url: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new IssuerUnavailableError(`${url}: no answer in time`, BACKOFF_SECONDS)),
      Math.max(0, deadline - Date.now()),
    );
  });
  return Promise.race([answer, late]).finally(() => clearTimeout(timer));
}

/**
 * The JSON object at `url`, passed through `check` (which throws on an answer it cannot use).
 * Throws IssuerUnavailableError while the issuer fails, IssuerRefusal when it refuses a POST;
 * `check` must be the same for every GET of a URL.
 */
export function fetchIssuerJson<T>(
  url: string,
  check: (json: Record<string, unknown>) => T,
  init: RequestInit = {},
): Promise<T> {
  const now = Date.now();
  const failure = failures.get(url);
  if (failure && failure.until > now) {
    const left = Math.ceil((failure.until - now) / 1000);
    return Promise.reject(new IssuerUnavailableError(`${failure.reason} (not asked again for ${left} s)`, left));
  }
  // A POST (an introspection) is about one token: nothing to share.
  if (init.method === "POST") return fetchOnce(url, check, init);
  const shared = inFlight.get(url);
  if (shared && shared.deadline > now) return waitFor(shared.answer as Promise<T>, shared.deadline, url);
  const flight = { deadline: now + FETCH_TIMEOUT_MS + 1000, answer: fetchOnce(url, check, init) };
  inFlight.set(url, flight);
  const done = () => inFlight.get(url) === flight && inFlight.delete(url);
  flight.answer.then(done, done);
  return flight.answer;
}
