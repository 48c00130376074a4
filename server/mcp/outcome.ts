/**
 * What a handler may return besides its plain result — a tool's own failure (`toolError(…)`), the "ask first" outcome
 * (`inputRequired(…)`, checked where it is built so a mistake surfaces there), a result a middleware shaped itself — and how
 * results are shaped for the wire: `resultType` and the server's identity on every one, a list's page and caching hints.
 */
import { requireClientCapabilities } from "./capabilities";
import { useMcpConfig } from "./config";
import type { McpContext } from "./context";
import { internalError } from "./errors";
import { logError } from "./log";
import { paginate } from "./pagination";
import { INPUT_REQUIRED_METHODS, META, type CacheHints, type CallToolResult, type InputRequest } from "./protocol";

/** Whether `value` is an object carrying `brand` (the mark each maker below sets on what it makes). */
export const hasBrand = (value: unknown, brand: symbol): boolean =>
  typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[brand] === true;

const TOOL_ERROR = Symbol.for("mcp-edge-template.tool-error");

/** A tool result marked as the author's own error (`isError: true`). */
export type ToolErrorResult = CallToolResult & { readonly [TOOL_ERROR]: true };

/**
 * A tool result that tells the model the tool failed (`isError: true`), for the core and features (a tool returns
 * `toolError(…)`, which makes one).
 * @example return toolErrorResult(`The tool "${tool.descriptor.name}" failed unexpectedly (reference ${reference}).`);
 */
export const toolErrorResult = (message: string): ToolErrorResult => ({
  content: [{ type: "text", text: message }],
  isError: true,
  [TOOL_ERROR]: true,
});

/**
 * Whether a tool's result is its own failure (`toolError(…)`), which no output schema applies to.
 * @example
 * if (options.output && !isToolErrorResult(value)) checkStructured(value); // a failure has no structured result
 */
export const isToolErrorResult = (value: unknown): value is ToolErrorResult => hasBrand(value, TOOL_ERROR);

const OUTCOME = Symbol.for("mcp-edge-template.input-required");

export interface InputRequiredOutcome {
  readonly [OUTCOME]: true;
  readonly inputRequests: Readonly<Record<string, InputRequest>>;
  /** The author's plain-object state, sealed into `requestState`. */
  readonly state: Readonly<Record<string, unknown>>;
}

/**
 * The "ask first" outcome (what `inputRequired(…)` returns): checked here, where it is built, so a mistake surfaces in
 * its handler. Only tools/call, prompts/get and resources/read may ask (else -32603, logged), and only what the client
 * can answer (else -32021).
 * @example return createInputRequiredOutcome(mcp, { confirm: elicitForm("Delete it?", Confirm) }, { step: 2 });
 */
export function createInputRequiredOutcome(
  mcp: McpContext,
  inputRequests: Readonly<Record<string, InputRequest>>,
  state: Readonly<Record<string, unknown>>,
): InputRequiredOutcome {
  if (!INPUT_REQUIRED_METHODS.has(mcp.method)) {
    logError(
      `programming error: inputRequired() called while serving ${mcp.method}; only tools/call, prompts/get and resources/read may ask for input`,
    );
    throw internalError();
  }
  requireClientCapabilities(mcp.clientCapabilities, inputRequests);
  return { [OUTCOME]: true, inputRequests, state };
}

/**
 * Whether a handler's outcome asks the client for input (`inputRequired(…)`) rather than answering.
 * @example
 * const outcome = await next(mcp);
 * if (isInputRequiredOutcome(outcome)) return askOnTheStream(mcp, outcome.inputRequests); // a 2025-era client's way
 */
export const isInputRequiredOutcome = (value: unknown): value is InputRequiredOutcome => hasBrand(value, OUTCOME);

const FINAL = Symbol.for("mcp-edge-template.final-result");

/** A result a middleware shaped for the wire itself (another `resultType`, another protocol revision's shape): sent as it is. */
export interface FinalResult {
  readonly [FINAL]: true;
  readonly result: Readonly<Record<string, unknown>>;
}

/**
 * Marks `result` as shaped for the wire: the core adds nothing to it (no `resultType`, no `serverInfo`).
 * @example return finalResult(shapeResult(kept.result, "complete")); // a result kept from an earlier round, sent as it was
 */
export const finalResult = (result: Readonly<Record<string, unknown>>): FinalResult => ({ [FINAL]: true, result });

/**
 * Whether a middleware shaped the outcome itself (`finalResult(…)`): it goes out as it is.
 * @example if (isFinalResult(outcome)) return outcome.result;
 */
export const isFinalResult = (value: unknown): value is FinalResult => hasBrand(value, FINAL);

// ——— results on the wire ———

let serverInfoMeta: Record<string, unknown> | undefined;
/**
 * `_meta` with the server's identity, as every result carries it.
 * @example serverInfo(); // { "io.modelcontextprotocol/serverInfo": { name: "my-server", version: "1.0.0" } }
 */
export const serverInfo = (): Record<string, unknown> =>
  (serverInfoMeta ??= { [META.serverInfo]: useMcpConfig().serverInfo });

/**
 * A copy of `result` with its `resultType` and the server's identity in `_meta`. Never mutates: a handler may return the same
 * object every time.
 * @example return finalResult(shapeResult(kept.result, "complete"));
 */
export function shapeResult(result: Readonly<Record<string, unknown>>, resultType: string): Record<string, unknown> {
  const meta = result._meta as Record<string, unknown> | undefined;
  // Object.assign, not `{ ...result, resultType }`: on Node 20's V8 each property after a spread costs more.
  return Object.assign({}, result, {
    resultType,
    _meta: meta ? Object.assign({}, meta, serverInfo()) : serverInfo(),
  });
}

/**
 * The shape every list method answers with: one page of `items` under `key`, `nextCursor`, caching hints.
 * @example addMethods({ "widgets/list": (mcp) => listResult("widgets", catalog, mcp) });
 */
export function listResult(
  key: string,
  items: readonly unknown[],
  mcp: McpContext,
  cacheScope?: CacheHints["cacheScope"],
): Record<string, unknown> {
  const config = useMcpConfig();
  const page = paginate(items, mcp.params.cursor, config.pageSize, key);
  return {
    [key]: page.items,
    ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
    ...config.listCache,
    ...(cacheScope ? { cacheScope } : {}),
  };
}
