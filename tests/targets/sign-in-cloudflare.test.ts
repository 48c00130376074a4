import { startWorker } from "../helpers/worker.mjs";
import { describeSignIn } from "./sign-in";

describeSignIn("Cloudflare build in workerd", ({ port, env }) => startWorker({ port, env }));
