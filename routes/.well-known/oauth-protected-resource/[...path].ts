/** Protected-resource metadata (RFC 9728) at the path-suffixed URL of this endpoint: /.well-known/oauth-protected-resource/mcp. */
import { useOAuthSettings } from "../../../server/mcp/auth/authenticate";
import { answerProtectedResourceMetadata } from "../../../server/mcp/auth/protected-resource";

export default defineEventHandler((event) => answerProtectedResourceMetadata(event, useOAuthSettings()));
