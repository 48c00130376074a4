/** Now, in whole seconds since the epoch: the unit of every expiry in this server. */
export const nowSeconds = (): number => Math.floor(Date.now() / 1000);
