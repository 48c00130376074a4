import { startWorker } from "../helpers/worker.mjs";
import { describeTarget } from "./suite";

describeTarget("Cloudflare build in workerd (npm run build:cloudflare)", () => startWorker());
