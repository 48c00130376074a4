/**
 * The front page (`GET /`, and `GET /mcp` from a browser): what this server is, what it offers and
 * how to connect to it. The lists are the registry's, exactly what `tools/list`, `prompts/list`,
 * `resources/list` and `resources/templates/list` answer, except for resources a template lists
 * per caller at run time (its template is shown instead).
 */
import type { H3Event } from "h3";
import { connectSnippets } from "./connect-snippets";
import { COPY_BUTTONS_SCRIPT } from "./copy-buttons";
import { endpointUrl } from "./endpoint-url";
import { FRONT_PAGE_STYLE } from "./front-page-style";
import { html, type SafeHtml } from "./html";
import { sendHtmlPage } from "./html-page";
import {
  MODERN_PROTOCOL_VERSION,
  registry,
  useMcpConfig,
  authenticationInfo,
  type Prompt,
  type Resource,
  type ResourceTemplate,
  type Tool,
} from "../../mcp/kit";

/** One line of a list: its key (a name or a URI), and what its author wrote about it. */
interface Item {
  readonly key: string;
  readonly title?: string;
  readonly description?: string;
  readonly details?: string;
}

const toolItem = (tool: Tool): Item => ({
  key: tool.name,
  title: tool.title ?? tool.annotations?.title,
  description: tool.description,
});

function promptItem(prompt: Prompt): Item {
  const names = (prompt.arguments ?? []).map((argument) =>
    argument.required ? argument.name : `${argument.name} (optional)`,
  );
  return {
    key: prompt.name,
    title: prompt.title,
    description: prompt.description,
    details: names.length ? `Arguments: ${names.join(", ")}` : undefined,
  };
}

const resourceItem = (resource: Resource | ResourceTemplate): Item => ({
  key: "uri" in resource ? resource.uri : resource.uriTemplate,
  title: resource.title ?? resource.name,
  description: resource.description,
  details: resource.mimeType,
});

interface Section {
  readonly id: string;
  readonly title: string;
  readonly items: readonly Item[];
}

let catalogue: readonly Section[] | undefined;

/** The sections of the catalogue, computed on the first page: the registry is fixed at build time. */
function useCatalogue(): readonly Section[] {
  const { tools, prompts, resources, templates } = registry();
  catalogue ??= [
    { id: "tools", title: "Tools", items: tools.map((entry) => toolItem(entry.descriptor)) },
    { id: "prompts", title: "Prompts", items: prompts.map((entry) => promptItem(entry.descriptor)) },
    { id: "resources", title: "Resources", items: resources.map((entry) => resourceItem(entry.descriptor)) },
    { id: "templates", title: "Resource templates", items: templates.map((entry) => resourceItem(entry.descriptor)) },
  ];
  return catalogue;
}

function renderItem(item: Item): SafeHtml {
  const title = item.title && html` <span>— ${item.title}</span>`;
  const lines = [item.description, item.details].map((text) => text && html`<dd>${text}</dd>`);
  return html`<dt><code>${item.key}</code>${title}</dt>${lines}
`;
}

const renderSection = (section: Section) => html`
  <section id="${section.id}"><h2>${section.title} <span class="badge">${section.items.length}</span></h2>
    ${section.items.length ? html`<dl>${section.items.map(renderItem)}</dl>` : html`<p class="muted">None.</p>`}
  </section>`;

const SIGN_IN_NOTE = html`
  <section id="catalogue"><h2>Tools, prompts and resources</h2>
    <p class="muted">This server asks its clients to sign in: connect with an MCP client to see what it offers.</p>
  </section>`;

function renderConnect(serverName: string, endpoint: string): SafeHtml {
  return html`
  <section id="connect"><h2>Connect</h2>
    ${connectSnippets(serverName, endpoint).map(
      (snippet) => html`
    <h3 id="${snippet.id}">${snippet.title}</h3>
    <p>${snippet.lead}</p>
    <div class="snippet"><pre data-copy><code>${snippet.code}</code></pre></div>`,
    )}
  </section>`;
}

/** Renders the front page for this request and sets its headers; the route returns the markup. */
export function sendFrontPage(event: H3Event): Promise<string> {
  const config = useMcpConfig();
  const { name, version } = config.serverInfo;
  const endpoint = endpointUrl(event, config);
  // When calling this server needs a token, an anonymous MCP client would see none of the lists (401),
  // so an anonymous browser does not either.
  const sections = authenticationInfo().some((info) => info.required) ? [] : useCatalogue();
  const body = html`<main>
  <header>
    <h1>${name} <span class="badge">v${version}</span></h1>
    <p class="muted">A Model Context Protocol server (protocol ${MODERN_PROTOCOL_VERSION}). MCP clients send
      <code>POST</code> requests to its endpoint; this page is for people.</p>
    <div class="snippet"><pre data-copy id="endpoint"><code>${endpoint}</code></pre></div>
    <nav>${sections.map((section) => html`<a href="#${section.id}">${section.title}</a>`)}<a href="#connect">Connect</a></nav>
  </header>
  ${sections.length ? sections.map(renderSection) : SIGN_IN_NOTE}
  ${renderConnect(name, endpoint)}
</main>`;
  return sendHtmlPage(event, {
    title: `${name} — MCP server`,
    style: FRONT_PAGE_STYLE,
    script: COPY_BUTTONS_SCRIPT,
    body,
  });
}
