/**
 * Imported first by each UI. Hosts forbid eval (no 'unsafe-eval' in their CSP), and zod tries `new Function` once, as
 * it builds its first object schema (the MCP SDK's, when the App class loads): the host then reports a CSP violation.
 * Telling zod before that never to compile code keeps the UI free of violations; nothing else changes.
 */
import { z } from "zod/v4";

z.config({ jitless: true });
