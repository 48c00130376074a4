/**
 * Sign-in and static tokens: checks their settings at start-up (a malformed NITRO_MCP_AUTH_TOKENS, sign-in without
 * NITRO_MCP_RESOURCE_URL… stop the server with a clear message), then, when either is configured, registers who may call.
 */
import { requireSignIn } from "../../../mcp/features";
import { logInfo } from "../../../mcp/log";
import { authenticate, credentialRequired, refuse, useOAuthSettings } from "../authenticate";
import { protectedResourceMetadataUrl } from "../protected-resource";
import { requireScopes } from "../scopes";

export default defineNitroPlugin(() => {
  if (!credentialRequired()) return;
  const oauth = useOAuthSettings();
  if (oauth) logInfo(`sign-in: tokens from ${oauth.issuer} for ${oauth.resource}`);
  requireSignIn({
    authenticate,
    authorize: requireScopes,
    refuse,
    metadataUrl: oauth && protectedResourceMetadataUrl(oauth.resource),
  });
});
