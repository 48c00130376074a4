/**
 * Tracing with OpenTelemetry's API, which does nothing until the deployer registers an SDK (see this
 * folder's README). Following the MCP semantic conventions:
 *
 * - one SERVER span per MCP request, named `{mcp.method.name} {target}` (the tool or prompt name;
 *   never the resource URI, which would make names unbounded), with `mcp.method.name`,
 *   `jsonrpc.request.id`, `mcp.protocol.version`, `gen_ai.tool.name`, `gen_ai.prompt.name`,
 *   `mcp.resource.uri`, and at the end `mcp.result.type` or `error.type` and `rpc.response.status_code`;
 * - its parent is the trace context the client sent in `params._meta` (`traceparent`, `tracestate`,
 *   `baggage`, as SEP-414 defines them), else the HTTP request's `traceparent`; with both, the HTTP
 *   one is linked;
 * - child spans: the requestState open and seal, and every storage operation (`withSpan`).
 */
import {
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
import { isPlainObject } from "../../mcp/internal/basics";
import type { JsonRpcRequest } from "../../mcp/jsonrpc";
import { META, nameFieldOf } from "../../mcp/protocol";
import type { RequestOutcome } from "../../mcp/features";

const tracer = trace.getTracer("mcp-edge-template");

/** Reads string values from `_meta`, or from Node's lower-cased request headers. */
const getter: TextMapGetter<Readonly<Record<string, unknown>>> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => {
    const value = carrier[key];
    return typeof value === "string" ? value : Array.isArray(value) ? (value[0] as string) : undefined;
  },
};

function requestAttributes(message: JsonRpcRequest, protocolVersion: string | undefined): Attributes {
  const { method, params } = message;
  const field = nameFieldOf(method);
  const target = field && params[field];
  return {
    "mcp.method.name": method,
    "jsonrpc.request.id": String(message.id),
    "network.transport": "tcp",
    "network.protocol.name": "http",
    ...(protocolVersion && { "mcp.protocol.version": protocolVersion }),
    ...(typeof target === "string" &&
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
export function startRequestSpan(event: H3Event, message: JsonRpcRequest): void {
  const httpContext = propagation.extract(ROOT_CONTEXT, event.node.req.headers, getter);
  const meta = isPlainObject(message.params._meta) ? message.params._meta : undefined;
  const metaContext = meta && typeof meta.traceparent === "string" ? propagation.extract(ROOT_CONTEXT, meta, getter) : undefined;
  const linked = metaContext && trace.getSpanContext(httpContext);
  const protocolVersion = meta?.[META.protocolVersion] ?? event.node.req.headers["mcp-protocol-version"];
  const attributes = requestAttributes(message, typeof protocolVersion === "string" ? protocolVersion : undefined);
  const target = attributes["gen_ai.tool.name"] ?? attributes["gen_ai.prompt.name"];
  const parent = metaContext ?? httpContext;
  const span = tracer.startSpan(
    target ? `${message.method} ${target}` : message.method,
    { kind: SpanKind.SERVER, attributes, links: linked ? [{ context: linked }] : [], startTime: event.context.mcpStartedAt },
    parent,
  );
  event.context.mcpTrace = trace.setSpan(parent, span);
}

/** Runs `work` inside the request's span, so what it does (state, storage) becomes its children. */
export function inRequestSpan<T>(event: H3Event, work: () => T): T {
  const active = event.context.mcpTrace;
  return active ? context.with(active, work) : work();
}

/** Ends the request's span with how the request ended. */
export function endRequestSpan(event: H3Event, status: number, outcome: RequestOutcome | undefined): void {
  const span = event.context.mcpTrace && trace.getSpan(event.context.mcpTrace);
  if (!span) return;
  span.setAttribute("http.response.status_code", status);
  if (outcome?.resultType) span.setAttribute("mcp.result.type", outcome.resultType);
  if (outcome?.errorCode !== undefined) {
    span.setAttributes({ "error.type": String(outcome.errorCode), "rpc.response.status_code": String(outcome.errorCode) });
    span.setStatus({ code: SpanStatusCode.ERROR, message: outcome.errorMessage });
  } else if (outcome?.toolError) {
    span.setAttribute("error.type", "tool_error");
    span.setStatus({ code: SpanStatusCode.ERROR });
  }
  span.end();
}

/**
 * Runs `work` in a child span of whatever span is active (the request's, or a task round's).
 * @example await withSpan("storage getItem", { "mcp.storage.name": "Redis" }, () => driver.getItem(key))
 */
export function withSpan<T>(name: string, attributes: Attributes, work: () => Promise<T>): Promise<T> {
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
