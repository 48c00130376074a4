import { startWorker } from "../helpers/server.mjs";
import { describeSignIn } from "./sign-in";

describeSignIn("Cloudflare build in workerd", ({ port, env }) => startWorker({ port, env }));
