// Not one of the four permissions the extension defines (untyped, as a JavaScript author could write it).
export default { permissions: { clipboardRead: {} } };
