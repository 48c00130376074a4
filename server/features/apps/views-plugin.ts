/**
 * The Nitro plugin `module.ts` adds to a build, just before `plugins/apps.ts`: serves the views the build made from
 * the `ui/` folders (`#mcp-app-views`) as `ui://<name>` resources, each `resource.ts` checked as it starts.
 */
import { views } from "#mcp-app-views";
import { serveViews } from "./served-uis";
import { viewResource } from "./view-resource";

export default defineNitroPlugin(() => serveViews(views.map(viewResource)));
