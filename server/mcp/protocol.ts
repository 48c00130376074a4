/**
 * Protocol vocabulary: the SDK's wire types, plus the handful of 2026-07-28 names the SDK
 * does not export as values (its constants live in the client/server bundles, which we
 * do not want in an edge bundle; `import type` costs nothing at run time).
 */
export type {
  CallToolResult,
  ClientCapabilities,
  ContentBlock,
  CreateMessageRequestParams,
  CreateMessageResult,
  DiscoverResult,
  ElicitRequestFormParams,
  ElicitResult,
  GetPromptResult,
  Implementation,
  InputRequest,
  InputRequests,
  InputRequiredResult,
  InputResponses,
  ListRootsResult,
  LoggingLevel,
  ProgressToken,
  Prompt,
  PromptArgument,
  PromptMessage,
  ReadResourceResult,
  RequestId,
  Resource,
  ResourceTemplateType as ResourceTemplate,
  ServerCapabilities,
  Tool,
  ToolAnnotations,
} from "@modelcontextprotocol/server";

/**
 * URL-mode elicitation as 2026-07-28 defines it. The SDK's `ElicitRequestURLParams` (2.4) still
 * requires 2025-11-25's `elicitationId`, which this revision removed.
 */
export interface UrlElicitationParams {
  mode: "url";
  message: string;
  url: string;
}

/** The revision this server speaks natively. */
export const MODERN_PROTOCOL_VERSION = "2026-07-28";

export const META = {
  protocolVersion: "io.modelcontextprotocol/protocolVersion",
  clientInfo: "io.modelcontextprotocol/clientInfo",
  clientCapabilities: "io.modelcontextprotocol/clientCapabilities",
  logLevel: "io.modelcontextprotocol/logLevel",
  serverInfo: "io.modelcontextprotocol/serverInfo",
  subscriptionId: "io.modelcontextprotocol/subscriptionId",
  progressToken: "progressToken",
} as const;

/** RFC 5424 severities, lowest first: a message is sent when its index is >= the requested level's. */
export const LOG_LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"] as const;

/** Extensions this server can offer, by their identifiers. */
export const EXTENSIONS = {
  tasks: "io.modelcontextprotocol/tasks",
  skills: "io.modelcontextprotocol/skills",
} as const;

/** The only requests that may answer `resultType: "input_required"`. */
export const INPUT_REQUIRED_METHODS = new Set(["tools/call", "prompts/get", "resources/read"]);

/** The body field each method mirrors into `Mcp-Name` (SEP-2243 and the tasks extension's routing headers). */
const NAME_FIELDS: Readonly<Record<string, "name" | "uri" | "taskId">> = {
  "tools/call": "name",
  "prompts/get": "name",
  "resources/read": "uri",
  "tasks/get": "taskId",
  "tasks/update": "taskId",
  "tasks/cancel": "taskId",
};

/** The body field a method mirrors into `Mcp-Name`; undefined for methods without one. */
export const nameFieldOf = (method: string): "name" | "uri" | "taskId" | undefined => NAME_FIELDS[method];

export type CacheScope = "public" | "private";
export interface CacheHints {
  ttlMs: number;
  cacheScope: CacheScope;
}
