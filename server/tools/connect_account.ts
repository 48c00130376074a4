import { requestOrigin } from "../mcp/kit";
import { getConnectAttempt, isConnected, startConnectAttempt } from "../examples/connections";

type Attempt = { code: string };

/**
 * URL-mode elicitation: the person finishes a step on a page of ours, out of the client's
 * sight. "accept" only means they agreed to open the link, so the retry checks storage
 * and asks again until the step is really done.
 */
export default defineTool({
  name: "connect_account",
  title: "Connect your demo account",
  description:
    "Links a (pretend) third-party account to the caller through a web page. No secret passes through the client.",
  annotations: { openWorldHint: false },
  async run(_args, mcp) {
    if (await isConnected(mcp.principal)) return "Your demo account is connected.";

    // Continue the attempt this flow started, unless its link expired: then start afresh.
    const previous = readRequestState<Attempt>(mcp);
    const stillOpen = previous && (await getConnectAttempt(previous.code))?.principal === mcp.principal;
    const attempt = stillOpen ? previous : { code: await startConnectAttempt(mcp.principal) };

    // The origin the client reached, its scheme from a proxy only through NITRO_MCP_TRUST_PROXY (a client could write it).
    const url = `${requestOrigin(mcp.event)}/connect/${attempt.code}`;
    const ask = { connect: elicitUrl("Open this page to connect your demo account, then come back.", url) };
    const { connect } = readInputResponses(mcp, ask);
    if (connect && connect.action !== "accept") return `Not connected: you chose "${connect.action}".`;
    // First round, or the page was not completed yet: ask (again) with the link.
    return inputRequired(mcp, ask, attempt);
  },
});
