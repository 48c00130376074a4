/** Any other verb on /mcp: after the Origin/Host guard (which also answers an allowed CORS preflight), 405. */
import { guardOriginAndHost } from "../server/mcp/http/guard";
import { refuseMethod } from "../server/mcp/http/not-allowed";

export default defineEventHandler({ onRequest: [guardOriginAndHost], handler: refuseMethod });
