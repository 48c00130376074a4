/**
 * The front page's style sheet: system fonts, light and dark colours from `prefers-color-scheme`,
 * nothing loaded from anywhere. Inline, allowed by its hash (see html-page.ts).
 */
export const FRONT_PAGE_STYLE = `
:root{color-scheme:light dark;--bg:#fff;--fg:#1f2328;--muted:#59636e;--line:#d8dee4;--panel:#f6f8fa;--accent:#0969da}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;--line:#30363d;--panel:#161b22;--accent:#4493f8}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{max-width:54rem;margin:0 auto;padding:2.5rem 1.25rem 4rem}
h1{font-size:2rem;line-height:1.2;margin:0;overflow-wrap:anywhere}
h2{font-size:1.3rem;margin:2.75rem 0 1rem;padding-bottom:.4rem;border-bottom:1px solid var(--line)}
h3{font-size:1.02rem;margin:1.75rem 0 .3rem}
p{margin:.4rem 0}
a{color:var(--accent)}
.muted,dd{color:var(--muted)}
.badge{display:inline-block;margin-left:.4rem;padding:.05rem .55rem;border:1px solid var(--line);border-radius:999px;font-size:.8rem;color:var(--muted);vertical-align:middle}
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.86rem}
:not(pre)>code{background:var(--panel);padding:.1rem .3rem;border-radius:4px}
.snippet{position:relative;margin-top:.6rem}
pre{margin:0;padding:.85rem 5rem .85rem 1rem;background:var(--panel);border:1px solid var(--line);border-radius:8px;overflow-x:auto;line-height:1.5}
.copy{position:absolute;top:.5rem;right:.5rem;font:inherit;font-size:.8rem;padding:.2rem .65rem;border:1px solid var(--line);border-radius:6px;background:var(--bg);color:var(--fg);cursor:pointer}
.copy:hover{border-color:var(--accent)}
nav{margin-top:1rem;display:flex;flex-wrap:wrap;gap:.3rem 1rem;font-size:.92rem}
dl{margin:0}
dt{margin-top:.9rem;font-weight:600;overflow-wrap:anywhere}
dt span{font-weight:400;color:var(--muted)}
dd{margin:.15rem 0 0}
footer{margin-top:3rem;font-size:.88rem}
`;
