import { startVercelOutput } from "../helpers/server.mjs";
import { describeTarget } from "./suite";

describeTarget("Vercel output (npm run build:vercel)", () => startVercelOutput());
