/** The one core module `utils/` and the app import, so the core's other files can change without touching them. */
export { StorageUnavailableError } from "./atomic-store";
export { clientCanAnswer } from "./capabilities";
export type { McpContext } from "./context";
export {
  DEFINITION,
  entryBase,
  type Completer,
  type EntryOptions,
  type PromptEntry,
  type ResourceEntry,
  type ToolEntry,
} from "./entries";
export { invalidParams, McpError, ResourceNotFoundError } from "./errors";
export { findHeaderParams } from "./http/header-params";
export { base64Encode, base64UrlEncode } from "./internal/basics";
export { escapeHtml } from "./internal/text";
export { nowSeconds, wait } from "./internal/basics";
export { describeIssues, objectSchema, type InputOf, type ObjectInput } from "./internal/zod";
export { notificationMessage } from "./protocol";
export { logError, logWarning, logWithReference } from "./log";
export {
  createInputRequiredOutcome,
  isInputRequiredOutcome,
  isToolErrorResult,
  toolErrorResult,
  type InputRequiredOutcome,
  type ToolErrorResult,
} from "./outcome";
export {
  LOG_LEVELS,
  type CacheHints,
  type CallToolResult,
  type ContentBlock,
  type CreateMessageRequestParams,
  type CreateMessageResult,
  type ElicitRequestFormParams,
  type GetPromptResult,
  type InputRequest,
  type ListRootsResult,
  type LoggingLevel,
  type Prompt,
  type PromptArgument,
  type PromptMessage,
  type ReadResourceResult,
  type Resource,
  type ResourceTemplate,
  type Tool,
  type ToolAnnotations,
  type UrlElicitationParams,
} from "./protocol";
export { digestKeySegment, KEY_SEGMENT } from "./storage-keys";
export { compileUriTemplate } from "./uri-template";
export { publishResourceChange } from "./resource-updates";
