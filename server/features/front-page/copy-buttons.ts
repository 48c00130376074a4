/**
 * The front page's only script: a "Copy" button on every snippet (`<pre data-copy>`). The script
 * adds the buttons itself, so without JavaScript there is no button that does nothing. Where the
 * Clipboard API is unavailable (plain http on a name other than localhost) or refused, it selects
 * the text instead, for the person to copy. Inline, allowed by its hash (see html-page.ts).
 */
export const COPY_BUTTONS_SCRIPT = `
for (const pre of document.querySelectorAll("pre[data-copy]")) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "copy";
  button.textContent = "Copy";
  const show = (label) => {
    button.textContent = label;
    setTimeout(() => (button.textContent = "Copy"), 1500);
  };
  const select = () => {
    getSelection().selectAllChildren(pre);
    show("Selected");
  };
  button.addEventListener("click", () => {
    if (navigator.clipboard) navigator.clipboard.writeText(pre.textContent).then(() => show("Copied"), select);
    else select();
  });
  pre.before(button);
}
`;
