/** The 401 answer of the bearer scheme (RFC 6750): a `WWW-Authenticate` challenge and an OAuth-style body. */
export class UnauthorizedError extends Error {
  override name = "UnauthorizedError";
  constructor(readonly reason: "missing_token" | "invalid_token") {
    super(reason === "missing_token" ? "Authentication required: send Authorization: Bearer <token>" : "The bearer token is not valid");
  }

  get challenge(): string {
    return this.reason === "invalid_token" ? 'Bearer realm="mcp", error="invalid_token"' : 'Bearer realm="mcp"';
  }
}
