/** Build time adds this module's entries to the registry's resources (see module.ts): every UI, at its `ui://` URI. */
import { views } from "#mcp-app-views";
import { viewResource } from "./view-resource";

export default views.map((view) => [viewResource(view), `ui/${view.name}`] as const);
