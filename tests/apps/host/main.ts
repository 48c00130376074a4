/**
 * A minimal MCP Apps host, as a chat client embeds a tool's UI: the official client (`?era=modern` pins 2026-07-28,
 * `?era=legacy` speaks 2025-11-25) on this page's `/mcp`, `AppBridge` talking to the UI in a sandboxed `srcdoc` iframe
 * under the strictest CSP a host applies, the tool's result sent to the UI, and the UI's calls forwarded through the
 * client, whose elicitation handler stands for the person confirming. What happened is left on `window.host`, with
 * `host.call` for a test to make a call of its own.
 */
import { Client, StreamableHTTPClientTransport, type CallToolResult, type Tool } from "@modelcontextprotocol/client";
import {
  AppBridge,
  getToolUiResourceUri,
  PostMessageTransport,
  RESOURCE_MIME_TYPE,
} from "@modelcontextprotocol/ext-apps/app-bridge";

const params = new URLSearchParams(location.search);
const toolName = params.get("tool") ?? "notes_board";
const host = {
  /** The questions the server asked (each answered "yes"). */
  asked: [] as unknown[],
  /** The UI's tools/call requests, as the host received them. */
  calls: [] as { name: string; arguments?: Record<string, unknown> }[],
  call: (name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args }),
  ready: false,
  error: "",
};
(window as unknown as { host: typeof host }).host = host;

const client = new Client(
  { name: "apps-test-host", version: "1.0.0" },
  {
    capabilities: {
      elicitation: { form: {} },
      extensions: { "io.modelcontextprotocol/ui": { mimeTypes: [RESOURCE_MIME_TYPE] } },
    },
    ...(params.get("era") === "legacy" ? {} : { versionNegotiation: { mode: { pin: "2026-07-28" } } }),
  },
);
client.setRequestHandler("elicitation/create", async (request) => {
  host.asked.push(request.params);
  return { action: "accept", content: { confirm: true } };
});

// The strictest policy hosts apply when a UI declares no domains: inline code only, no eval, no network, no form posts.
const CSP =
  "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src 'none'; font-src 'none'; " +
  "connect-src 'none'; frame-src 'none'; form-action 'none'; object-src 'none'; base-uri 'self'";

async function main(): Promise<void> {
  await client.connect(new StreamableHTTPClientTransport(new URL("/mcp", location.origin)));
  const { tools } = await client.listTools();
  const byName = new Map<string, Tool>(tools.map((tool) => [tool.name, tool]));
  const uri = getToolUiResourceUri(byName.get(toolName)!);
  if (!uri) throw new Error(`${toolName} has no UI`);
  const content = (await client.readResource({ uri })).contents[0] as { text: string; mimeType: string };
  if (content.mimeType !== RESOURCE_MIME_TYPE) throw new Error(`unexpected MIME type ${content.mimeType}`);

  const iframe = document.createElement("iframe");
  iframe.setAttribute("sandbox", "allow-scripts");
  iframe.style.width = "700px";
  iframe.srcdoc = `<meta http-equiv="Content-Security-Policy" content="${CSP}">${content.text}`;
  document.getElementById("slot")!.append(iframe);

  // No client given: every UI request is handled here, and a tool the UI may not call (no "app" visibility) is refused.
  const bridge = new AppBridge(
    null,
    { name: "apps-test-host", version: "1.0.0" },
    { serverTools: {}, logging: {} },
    {
      hostContext: { theme: "light", platform: "web", displayMode: "inline", availableDisplayModes: ["inline"] },
    },
  );
  bridge.oncalltool = async (call) => {
    host.calls.push({ name: call.name, arguments: call.arguments });
    const visibility = (byName.get(call.name)?._meta?.ui as { visibility?: string[] } | undefined)?.visibility;
    if (!byName.has(call.name) || !(visibility ?? ["model", "app"]).includes("app"))
      throw new Error(`${call.name} is not callable from the UI`);
    return (await client.callTool(call)) as CallToolResult;
  };
  bridge.onsizechange = ({ height }) => {
    if (height !== undefined) iframe.style.height = `${height}px`;
  };
  const initialized = new Promise<void>((resolve) => {
    bridge.oninitialized = () => resolve();
  });
  await bridge.connect(new PostMessageTransport(iframe.contentWindow!, iframe.contentWindow!));
  const args = JSON.parse(params.get("arguments") ?? "{}") as Record<string, unknown>;
  const [result] = await Promise.all([client.callTool({ name: toolName, arguments: args }), initialized]);
  await bridge.sendToolInput({ arguments: args });
  await bridge.sendToolResult(result as CallToolResult);
  host.ready = true;
}

main().catch((error: Error) => {
  host.error = error.message;
});
