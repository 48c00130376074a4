// A script to inline: the test checks the document loads nothing from a URL of its own.
const out = document.getElementById("out") as HTMLElement;
out.textContent = "</script> stays text";
