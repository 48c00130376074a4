/**
 * The MCP Apps feature in-process, on the fixture UI (`tests/fixtures-apps/`, built by the feature's own Vite step): what
 * tools/list, resources/list and resources/read carry in both eras, checked against the extension's published JSON Schema;
 * the extension declared; the client's capability read from `_meta` (a 2025-era client's from what it declared at
 * `initialize`, kept in its session); the resource rules every URI goes through; and the start-up refusing a bad UI.
 * The built examples in a real host: tests/apps/.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import Ajv2020 from "ajv/dist/2020";
import { beforeAll, describe, expect, it } from "vitest";
import { checkedToolUi, listedToolMeta } from "../../../server/features/apps/tool-ui";
import { checkedUiMeta } from "../../../server/features/apps/view-resource";
import { createTestServer, type TestRpcError, type Json, type TestServer } from "../../helpers/in-process";
import { hasFeature } from "../../helpers/project.mjs";

const UI = "io.modelcontextprotocol/ui";
const MIME = "text/html;profile=mcp-app";
const URI = "ui://fixture-view";
const RENDERS_UI = { extensions: { [UI]: { mimeTypes: [MIME] } } };
const FIXTURE = {
  definitions: [
    "tests/fixtures-apps/tools/show_fixture.ts",
    "tests/fixtures-apps/tools/refresh_fixture.ts",
    "tests/fixtures-apps/resources/fixture-view.ts",
  ],
};
const ERAS = hasFeature("legacy") ? (["2026-07-28", "2025-11-25"] as const) : (["2026-07-28"] as const);

/** The extension's own JSON Schema (2020-12), as the package publishes it. */
const schema = JSON.parse(
  readFileSync(createRequire(import.meta.url).resolve("@modelcontextprotocol/ext-apps/schema.json"), "utf8"),
);
const ajv = new Ajv2020({ strict: false });
ajv.addSchema(schema);
function validAgainst(definition: string, value: unknown): string[] {
  const validate = ajv.getSchema(`${schema.$id}#/$defs/${definition}`)!;
  return validate(value) ? [] : (validate.errors ?? []).map((error) => `${error.instancePath} ${error.message}`);
}

let server: TestServer;
beforeAll(async () => {
  server = await createTestServer(FIXTURE);
});

describe.each(ERAS)("a UI tool and its resource, %s", (era) => {
  const client = () => server.connect({ era });

  it("tools/list links each UI tool to its ui:// resource, with its visibility, in the shape the schema allows", async () => {
    const { tools } = await client().call("tools/list");
    const meta = Object.fromEntries(tools.map((tool: Json) => [tool.name, tool._meta]));
    expect(meta.show_fixture).toEqual({
      ui: { resourceUri: URI, visibility: ["model", "app"] },
      "ui/resourceUri": URI,
    });
    expect(meta.refresh_fixture).toEqual({ ui: { resourceUri: URI, visibility: ["app"] }, "ui/resourceUri": URI });
    for (const { ui } of Object.values(meta) as Json[]) expect(validAgainst("McpUiToolMeta", ui)).toEqual([]);
  });

  it("resources/read serves one complete, self-contained document with the MIME type and _meta.ui", async () => {
    const result = await client().readResource(URI);
    expect(result.contents).toHaveLength(1);
    const content = result.contents[0] as Json;
    expect(content).toMatchObject({ uri: URI, mimeType: MIME });
    expect(content.text).toMatch(/^<!doctype html>/i);
    expect(content.text).toContain("</html>");
    // Inlined: no script or stylesheet loaded from a URL (a sandboxed view has no origin to load it from).
    expect(content.text).not.toMatch(/<script[^>]*\ssrc=|<link[^>]*stylesheet/);
    expect(content.text).toContain('<script type="module">');
    expect(content.text).toContain("<\\/script> stays text");
    expect(content._meta.ui).toEqual({
      csp: { connectDomains: ["https://api.example.com"], resourceDomains: ["https://*.cdn.example.com:8443"] },
      permissions: { clipboardWrite: {} },
      prefersBorder: false,
    });
    expect(validAgainst("McpUiResourceMeta", content._meta.ui)).toEqual([]);
  });

  it("resources/list lists the UI with the same _meta.ui", async () => {
    const { resources } = await client().call("resources/list");
    const listed = resources.find((resource: Json) => resource.uri === URI);
    expect(listed).toEqual({
      uri: URI,
      name: "fixture-view",
      title: "Fixture view",
      description: "A view declaring a little of everything",
      mimeType: MIME,
      _meta: { ui: ((await client().readResource(URI)).contents[0] as Json)._meta.ui },
    });
  });

  it("an unknown ui:// URI is refused like any unknown resource (-32602; 2025-era: -32002)", async () => {
    const refusal = (uri: string) =>
      client()
        .readResource(uri)
        .then(
          () => undefined,
          (error: TestRpcError) => ({ code: error.code, status: error.status }),
        );
    const refused = await refusal("ui://no-such-view");
    expect(refused?.code).toBe(era === "2026-07-28" ? -32602 : -32002);
    expect(refused).toEqual(await refusal("fixture://no-such-resource"));
  });
});

describe("the extension", () => {
  it("is declared in server/discover", async () => {
    const { body } = await server.connect().request("server/discover");
    expect(body.result.capabilities.extensions[UI]).toEqual({});
  });

  it.runIf(hasFeature("legacy"))("is declared in initialize", async () => {
    const { body } = await server.post({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    });
    expect(body.result.capabilities.extensions[UI]).toEqual({});
  });

  it("the resource's read carries public caching hints: the document changes only with a deploy", async () => {
    const result = await server.connect().readResource(URI);
    expect(result).toMatchObject({ ttlMs: 3_600_000, cacheScope: "public" });
  });

  it("serves the same document to every caller, whatever they declare", async () => {
    const reads = await Promise.all([
      server.connect().readResource(URI),
      server.connect({ capabilities: RENDERS_UI }).readResource(URI),
      server
        .connect({ capabilities: { elicitation: {} }, headers: { "x-forwarded-for": "203.0.113.9" } })
        .readResource(URI),
      ...(hasFeature("legacy") ? [server.connect({ era: "2025-11-25" }).readResource(URI)] : []),
    ]);
    for (const read of reads) expect(read.contents).toEqual(reads[0].contents);
  });
});

describe("whether the client renders UIs, read per request from _meta", () => {
  const rendered = async (capabilities: Json) =>
    ((await server.connect({ capabilities }).callTool("show_fixture")).structuredContent as Json).rendersUi;

  it("is true when the client declares the extension with the MCP App MIME type", async () => {
    expect(await rendered(RENDERS_UI)).toBe(true);
    expect(await rendered({ extensions: { [UI]: { mimeTypes: ["text/plain", MIME] } } })).toBe(true);
  });

  it.each([
    ["no capabilities", {}],
    ["other extensions", { extensions: { "io.modelcontextprotocol/tasks": {} } }],
    ["the extension without MIME types", { extensions: { [UI]: {} } }],
    ["another MIME type", { extensions: { [UI]: { mimeTypes: ["text/html"] } } }],
    ["MIME types that are not a list", { extensions: { [UI]: { mimeTypes: MIME } } }],
    ["an extension that is not an object", { extensions: { [UI]: [MIME] } }],
    ["extensions that are not an object", { extensions: "ui" }],
  ])("is false with %s", async (_, capabilities) => {
    expect(await rendered(capabilities)).toBe(false);
  });

  it("is the same tools/list for every client", async () => {
    const plain = await server.connect().call("tools/list");
    expect(await server.connect({ capabilities: RENDERS_UI }).call("tools/list")).toEqual(plain);
  });
});

describe.runIf(hasFeature("legacy"))(
  "whether a 2025-era client renders UIs, read from what it declared at initialize",
  () => {
    const HEADERS = {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2025-11-25",
    };
    /** show_fixture's result on the session of a client that declared `capabilities` (none: no session at all). */
    async function shown(capabilities?: Json): Promise<Json> {
      let session: Record<string, string> = {};
      if (capabilities) {
        const params = { protocolVersion: "2025-11-25", capabilities, clientInfo: { name: "raw", version: "1" } };
        const { headers } = await server.post({ jsonrpc: "2.0", id: 1, method: "initialize", params }, HEADERS);
        session = { "mcp-session-id": headers.get("mcp-session-id")! };
      }
      const call = { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "show_fixture", arguments: {} } };
      return (await server.post(call, { ...HEADERS, ...session })).body.result;
    }

    it("is true when it declared the extension with the MCP App MIME type", async () => {
      const result = await shown(RENDERS_UI);
      expect(result.structuredContent.rendersUi).toBe(true);
      expect(result.content).toEqual([{ type: "text", text: "shown in the view" }]);
    });

    it("is true when it declared it beside a large extension of another kind", async () => {
      const verbose = { "com.example/verbose": { notes: "x".repeat(3000) } };
      expect((await shown({ extensions: { ...verbose, ...RENDERS_UI.extensions } })).structuredContent.rendersUi).toBe(
        true,
      );
    });

    it.each([
      ["no capabilities", {}],
      ["the extension without MIME types", { extensions: { [UI]: {} } }],
      ["another MIME type", { extensions: { [UI]: { mimeTypes: ["text/html"] } } }],
      [
        "the extension under experimental, which neither the spec nor the package reads",
        { experimental: { [UI]: { mimeTypes: [MIME] } } },
      ],
    ])("is false when it declared %s", async (_, capabilities) => {
      expect((await shown(capabilities)).structuredContent.rendersUi).toBe(false);
    });

    it("is false for a request without a session", async () => {
      const result = await shown();
      expect(result.structuredContent.rendersUi).toBe(false);
      expect(result.content).toEqual([{ type: "text", text: "text only" }]);
    });
  },
);

describe.runIf(hasFeature("sign-in"))("an app-only tool and the UI resource", () => {
  const TOKEN = "apps-fixture-token-0123456789";
  let signedIn: TestServer;
  beforeAll(async () => {
    signedIn = await createTestServer({ ...FIXTURE, env: { NITRO_MCP_AUTH_TOKENS: `alice:${TOKEN}` } });
  });

  it("are refused without a credential, like any call", async () => {
    for (const [method, params] of [
      ["tools/call", { name: "refresh_fixture", arguments: {} }],
      ["resources/read", { uri: URI }],
    ] as const) {
      const exchange = await signedIn.connect().request(method, params);
      expect(exchange.status).toBe(401);
    }
  });

  it("are served with one", async () => {
    const client = signedIn.connect({ headers: { authorization: `Bearer ${TOKEN}` } });
    expect((await client.callTool("refresh_fixture")).structuredContent).toEqual({ refreshed: true });
    expect((await client.readResource(URI)).contents[0]!.mimeType).toBe(MIME);
  });
});

describe("start-up", () => {
  const starting = (definitions: string[]) =>
    createTestServer({ definitions }).then(
      () => "started",
      (error: Error) => error.message,
    );

  it("stops on a CSP entry that is not a bare origin, naming the UI and the entry", async () => {
    expect(await starting(["tests/fixtures-apps/resources/bad-csp.ts"])).toMatch(
      /UI "bad-csp" \(ui\/bad-csp\/resource\.ts\): csp\.connectDomains: "https:\/\/api\.example\.com\/v1" is not an origin/,
    );
  });

  it("stops on a permission the extension does not define", async () => {
    expect(await starting(["tests/fixtures-apps/resources/bad-permission.ts"])).toMatch(
      /UI "bad-permission" \(ui\/bad-permission\/resource\.ts\): unknown permission "clipboardRead"/,
    );
  });

  it("stops on a tool linked to a UI the build does not serve", async () => {
    expect(
      await starting([
        "tests/fixtures-apps/tools/links_missing_view.ts",
        "tests/fixtures-apps/resources/fixture-view.ts",
      ]),
    ).toMatch(/Tool "links_missing_view" links the UI ui:\/\/no-such-view, which this build does not serve/);
  });

  it("stops on a malformed ui option, even where no UI is served", async () => {
    expect(await starting(["tests/fixtures-apps/tools/malformed_ui.ts"])).toMatch(
      /Tool "malformed_ui": ui resourceUri "ui:\/\/Notes Board" is not a ui:\/\/ URI/,
    );
  });
});

describe("the checks, one by one", () => {
  it.each([
    "https://api.example.com",
    "https://*.example.com",
    "wss://realtime.example.com:8443",
    "http://localhost:5173",
    "ws://127.0.0.1:8080",
  ])("accepts the origin %s", (origin) => {
    expect(checkedUiMeta("x", { csp: { connectDomains: [origin] } }).csp).toEqual({ connectDomains: [origin] });
  });

  it.each([
    "http://api.example.com",
    "https://api.example.com/",
    "https://API.example.com",
    "https://api.example.com; script-src *",
    "https://*",
    "https://a.*.example.com",
    "*",
    "data:",
    "api.example.com",
    "https://api.example.com\n",
    42,
  ])("refuses the origin %j", (origin) => {
    expect(() => checkedUiMeta("x", { csp: { resourceDomains: [origin] } })).toThrow(/csp\.resourceDomains/);
  });

  it.each([
    [{ csp: { scriptDomains: [] } }, /unknown csp key "scriptDomains"/],
    [{ csp: { connectDomains: "https://api.example.com" } }, /csp\.connectDomains must be a list/],
    [{ permissions: { camera: true } }, /permissions\.camera must be \{\}/],
    [{ domain: "https://abc.example.com" }, /domain "https:\/\/abc\.example\.com" is not a host name/],
    [{ prefersBorder: "yes" }, /prefersBorder must be true or false/],
    [{ sandbox: "allow-same-origin" }, /unknown option "sandbox"/],
  ])("refuses %j", (options, message) => {
    expect(() => checkedUiMeta("x", options)).toThrow(message);
  });

  it("borders by default, and passes a valid domain and all four permissions through", () => {
    const all = { camera: {}, microphone: {}, geolocation: {}, clipboardWrite: {} };
    const meta = checkedUiMeta("x", { domain: "abc123.claudemcpcontent.com", permissions: all });
    expect(meta).toEqual({ prefersBorder: true, domain: "abc123.claudemcpcontent.com", permissions: all });
    expect(validAgainst("McpUiResourceMeta", meta)).toEqual([]);
  });

  it.each([
    ["ui://notes-board", /must be an object/],
    [{ resourceUri: "notes-board" }, /resourceUri "notes-board" is not a ui:\/\/ URI/],
    [{ resourceUri: "ui://notes board" }, /resourceUri "ui:\/\/notes board" is not a ui:\/\/ URI/],
    [{ resourceUri: "ui://" }, /is not a ui:\/\/ URI/],
    [{ resourceUri: 42 }, /resourceUri 42 is not a ui:\/\/ URI/],
    [{ resourceUri: "ui://notes", visibility: [] }, /visibility lists/],
    [{ resourceUri: "ui://notes", visibility: ["agent"] }, /visibility lists/],
    [{ resourceUri: "ui://notes", visibility: ["app", "app"] }, /visibility lists/],
    [{ resourceUri: "ui://notes", visibility: "app" }, /visibility lists/],
    [{ resourceUri: "ui://notes", csp: {} }, /has no option "csp"/],
    [{}, /names a resourceUri such as "ui:\/\/notes-board", or the visibility \["app"\]/],
    [{ visibility: ["nobody"] }, /visibility lists/],
  ])("the ui option refuses %j", (ui, message) => {
    expect(() => checkedToolUi("notes_board", ui)).toThrow(message);
  });

  it("the ui option fills in the default visibility", () => {
    expect(checkedToolUi("notes_board", { resourceUri: "ui://notes-board" })).toEqual({
      resourceUri: "ui://notes-board",
      visibility: ["model", "app"],
    });
  });

  it("a tool only UIs call may show no UI of its own: listed with its visibility alone, no flat key", () => {
    const ui = checkedToolUi("delete_from_board", { visibility: ["app"] });
    expect(ui).toEqual({ visibility: ["app"] });
    expect(listedToolMeta(ui)).toEqual({ ui: { visibility: ["app"] } });
    expect(validAgainst("McpUiToolMeta", ui)).toEqual([]);
  });
});
