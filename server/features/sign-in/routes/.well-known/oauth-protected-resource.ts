/** Protected-resource metadata (RFC 9728) at the root, where clients look after the path-suffixed URL. */
import { useOAuthSettings } from "../../authenticate";
import { answerProtectedResourceMetadata } from "../../protected-resource";

export default defineEventHandler((event) => answerProtectedResourceMetadata(event, useOAuthSettings()));
