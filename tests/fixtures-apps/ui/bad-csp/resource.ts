// A path in an origin: a CSP source with a path allows less than the author thinks, and hosts disagree on it.
export default { csp: { connectDomains: ["https://api.example.com/v1"] } };
