/**
 * Logs and traces for every request, once its response is complete: the request's line in the log, and
 * its span ended.
 *
 * The request log: one line per HTTP request. For an MCP request: its JSON-RPC id, who sent it, the era, the method and
 * target, and how it ended (the result type, or the JSON-RPC error code; `cancelled` when the client went away before its
 * answer was whole), with the HTTP status and the duration. Never a token, a sealed state, or an argument (unless
 * NITRO_MCP_LOG_ARGUMENTS turns them on, for development).
 *
 * Tracing, with OpenTelemetry's API, which does nothing until the deployer registers an SDK (see this
 * folder's README), following the MCP semantic conventions:
 * - one SERVER span per MCP request, started once its message is read, named `{mcp.method.name} {target}`
 *   (the tool or prompt name; never the resource URI, which would make names unbounded), with
 *   `mcp.method.name`, `jsonrpc.request.id`, `mcp.protocol.version`, `gen_ai.tool.name`, `gen_ai.prompt.name`,
 *   `mcp.resource.uri`, and at the end `mcp.result.type` or `error.type` and `rpc.response.status_code`;
 * - its parent is the trace context the client sent in `params._meta` (`traceparent`, `tracestate`,
 *   `baggage`, as SEP-414 defines them), else the HTTP request's `traceparent`; with both, the HTTP
 *   one is linked;
 * - child spans: the requestState open and seal, and every storage operation (`withSpan`).
 */
import {
  ProxyTracerProvider,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  context,
  propagation,
  trace,
  type Attributes,
  type TextMapGetter,
} from "@opentelemetry/api";
import type { H3Event } from "h3";
import {
  META,
  isPlainObject,
  logInfoMembers,
  logValue as json,
  nameFieldOf,
  observeRequests,
  useSettings,
  wrapRequestSteps,
  wrapUnitsOfWork,
  type JsonRpcRequest,
  type RequestEnd,
} from "../../../mcp/kit";
import { SETTINGS } from "../settings";

const tracer = trace.getTracer("mcp-edge-template");
/** What the global provider delegates to until an SDK registers (which it may do after this plugin). */
const NO_SDK = new ProxyTracerProvider().getDelegate();
/** Without an SDK every span is a no-op: none is made, and the request pays nothing for tracing. */
function tracing(): boolean {
  const provider = trace.getTracerProvider();
  return !(provider instanceof ProxyTracerProvider) || provider.getDelegate() !== NO_SDK;
}

/** Reads string values from `_meta`, or from Node's lower-cased request headers. */
const getter: TextMapGetter<Readonly<Record<string, unknown>>> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => {
    const value = carrier[key];
    return typeof value === "string" ? value : Array.isArray(value) ? (value[0] as string) : undefined;
  },
};

/**
 * What the client sent, cut at 200 characters: a huge id, method or name must make neither a huge log line nor a huge span.
 * (Not the kit's `clip`: its module would be one more on every request's path, for an ellipsis.)
 */
const cut = (text: string): string => text.slice(0, 200);

function requestAttributes(message: JsonRpcRequest, protocolVersion: string | undefined): Attributes {
  const { params } = message;
  const method = cut(message.method);
  const field = nameFieldOf(message.method);
  const named = field && params[field];
  const target = typeof named === "string" ? cut(named) : undefined;
  return {
    "mcp.method.name": method,
    "jsonrpc.request.id": cut(String(message.id)),
    "network.transport": "tcp",
    "network.protocol.name": "http",
    ...(protocolVersion && { "mcp.protocol.version": cut(protocolVersion) }),
    ...(target !== undefined &&
      (method === "tools/call"
        ? { "gen_ai.tool.name": target, "gen_ai.operation.name": "execute_tool" }
        : method === "prompts/get"
          ? { "gen_ai.prompt.name": target }
          : method === "resources/read"
            ? { "mcp.resource.uri": target }
            : {})),
  };
}

/** Starts the request's span, as soon as its JSON-RPC message is read; the steps after it run inside it. */
function startRequestSpan(event: H3Event, message: JsonRpcRequest): void {
  if (!tracing()) return;
  const httpContext = propagation.extract(ROOT_CONTEXT, event.node.req.headers, getter);
  const meta = isPlainObject(message.params._meta) ? message.params._meta : undefined;
  const metaContext =
    meta && typeof meta.traceparent === "string" ? propagation.extract(ROOT_CONTEXT, meta, getter) : undefined;
  const linked = metaContext && trace.getSpanContext(httpContext);
  const protocolVersion = meta?.[META.protocolVersion] ?? event.node.req.headers["mcp-protocol-version"];
  const attributes = requestAttributes(message, typeof protocolVersion === "string" ? protocolVersion : undefined);
  const target = attributes["gen_ai.tool.name"] ?? attributes["gen_ai.prompt.name"];
  const parent = metaContext ?? httpContext;
  const span = tracer.startSpan(
    target ? `${cut(message.method)} ${target}` : cut(message.method),
    {
      kind: SpanKind.SERVER,
      attributes,
      links: linked ? [{ context: linked }] : [],
      startTime: event.context.mcpStartedAt,
    },
    parent,
  );
  event.context.mcpTrace = trace.setSpan(parent, span);
}

/** Runs `work` inside the request's span, so what it does (state, storage) becomes its children. */
function inRequestSpan<T>(event: H3Event, work: () => T): T {
  const active = event.context.mcpTrace;
  return active ? context.with(active, work) : work();
}

/** Ends the request's span with how the request ended. */
function endRequestSpan(event: H3Event, outcome: RequestEnd): void {
  const span = event.context.mcpTrace && trace.getSpan(event.context.mcpTrace);
  if (!span) return;
  span.setAttribute("http.response.status_code", outcome.status);
  if (outcome.resultType) span.setAttribute("mcp.result.type", outcome.resultType);
  if (outcome.errorCode !== undefined) {
    span.setAttributes({
      "error.type": String(outcome.errorCode),
      "rpc.response.status_code": String(outcome.errorCode),
    });
    span.setStatus({ code: SpanStatusCode.ERROR, message: outcome.errorMessage });
  } else if (outcome.toolError) {
    span.setAttribute("error.type", "tool_error");
    span.setStatus({ code: SpanStatusCode.ERROR });
  }
  span.end();
}

/**
 * Runs `work` in a child span of whatever span is active (the request's, or a task round's).
 * @example await withSpan("storage getItem", { "mcp.storage.name": "Redis" }, () => driver.getItem(key))
 */
function withSpan<T>(name: string, attributes: Attributes, work: () => T | Promise<T>): T | Promise<T> {
  if (!tracing()) return work();
  return tracer.startActiveSpan(name, { attributes }, async (span) => {
    try {
      return await work();
    } catch (error) {
      span.recordException(error instanceof Error ? error : String(error));
      span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : undefined });
      throw error;
    } finally {
      span.end();
    }
  });
}

declare module "h3" {
  interface H3EventContext {
    /** The trace context of the request's span, once its message was read. */
    mcpTrace?: import("@opentelemetry/api").Context;
  }
}

/**
 * Milliseconds to two decimals, printed as `Math.round(ms * 100) / 100` prints them for any duration from 0 to 2^46 ms (a
 * request's is far below), from integers: V8 prints a fraction through its general number formatting, which costs more than
 * the rest of the line. (Exported for its unit test.)
 */
export function twoDecimals(ms: number): string {
  const hundredths = Math.round(ms * 100);
  const fraction = hundredths % 100;
  const digits = fraction % 10 === 0 ? `${fraction / 10}` : `${fraction < 10 ? "0" : ""}${fraction}`;
  return fraction === 0 ? `${hundredths / 100}` : `${(hundredths - fraction) / 100}.${digits}`;
}

/** The request's path, without its query (which may carry what the log must not). */
function pathOf(event: H3Event): string {
  const query = event.path.indexOf("?");
  return cut(query < 0 ? event.path : event.path.slice(0, query));
}

/**
 * The request's line, as JSON members: what a refused request still says about itself (its message, once read), and how
 * it ended. Written straight into the line, one per request: no object to build and serialize.
 */
export function requestLogMembers(
  event: H3Event,
  ended: RequestEnd,
  durationMs: number,
  withArguments: boolean,
): string {
  const { mcp, mcpMessage, mcpAuth } = event.context;
  let members = `"http":${json(`${event.method} ${pathOf(event)}`)},"status":${ended.status},"durationMs":${twoDecimals(durationMs)}`;
  if (mcpMessage) {
    const field = nameFieldOf(mcpMessage.method);
    const target = field && mcpMessage.params[field];
    // An integer id is its own JSON (ids are strings or safe integers, as read).
    const id = typeof mcpMessage.id === "string" ? json(cut(mcpMessage.id)) : mcpMessage.id;
    members += `,"requestId":${id},"method":${json(cut(mcpMessage.method))}`;
    if (typeof target === "string") members += `,"target":${json(cut(target))}`;
  }
  if (mcpAuth) members += `,"principal":${json(mcpAuth.principal)}`;
  // The era: a 2026-07-28 request is "modern"; one an adapter read is named after it ("legacy").
  if (mcp) members += `,"era":${json(mcp.adapter ?? "modern")},"protocolVersion":${json(mcp.protocolVersion)}`;
  if (ended.errorCode !== undefined) members += `,"errorCode":${ended.errorCode}`;
  else if (ended.resultType) members += `,"resultType":${json(ended.resultType)}`;
  if (ended.toolError) members += `,"toolError":true`;
  // An MCP request whose connection closed before its answer was whole: the client went away first (closing a call's stream
  // cancels the call; a listen's, ends it), so it did not complete. (A whole answer's connection closes only after this.)
  if (mcpMessage && event.node?.res?.socket?.destroyed) members += `,"cancelled":true`;
  const args =
    withArguments && mcpMessage?.params.arguments !== undefined ? json(mcpMessage.params.arguments) : undefined;
  return args === undefined ? members : `${members},"arguments":${args}`;
}

export default defineNitroPlugin(() => {
  const settings = useSettings(SETTINGS);
  wrapRequestSteps(inRequestSpan);
  wrapUnitsOfWork(withSpan);
  observeRequests({
    start(event) {
      event.context.mcpStartedAt = performance.now();
    },
    read: startRequestSpan,
    end(event, ended) {
      endRequestSpan(event, ended);
      if (!settings.logRequests) return;
      const durationMs = performance.now() - (event.context.mcpStartedAt ?? performance.now());
      logInfoMembers("request", requestLogMembers(event, ended, durationMs, settings.logArguments));
    },
  });
});
