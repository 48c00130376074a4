/** Protected-resource metadata (RFC 9728) at the path-suffixed URL of this endpoint: /.well-known/oauth-protected-resource/mcp. */
import { useOAuthSettings } from "../../../authenticate";
import { answerProtectedResourceMetadata } from "../../../protected-resource";

export default defineEventHandler((event) => answerProtectedResourceMetadata(event, useOAuthSettings()));
