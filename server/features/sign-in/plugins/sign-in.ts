/**
 * Sign-in and static tokens: checks their settings at start-up (a malformed NITRO_MCP_AUTH_TOKENS, sign-in without
 * NITRO_MCP_RESOURCE_URL… stop the server with a clear message), then, when either is configured, registers who may call.
 */
import { addAuthenticator, addAuthorizer, logInfo } from "../../../mcp/kit";
import { anonymousRefusal, authenticate, credentialRequired, useOAuthSettings } from "../authenticate";
import { protectedResourceMetadataUrl } from "../protected-resource";
import { requireScopes } from "../scopes";

export default defineNitroPlugin(() => {
  if (!credentialRequired()) return;
  const oauth = useOAuthSettings();
  if (oauth) logInfo(`sign-in: tokens from ${oauth.issuer} for ${oauth.resource}`);
  addAuthenticator(authenticate, {
    required: true,
    metadataUrl: oauth && protectedResourceMetadataUrl(oauth.resource),
    challenge: anonymousRefusal,
  });
  addAuthorizer(requireScopes(oauth));
});
