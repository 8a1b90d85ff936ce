import html from 'html-template-tag';

export const STYLESHEET = `
:root { font-family: system-ui, sans-serif; color: #1d2b24; background: #f6f4ef; }
body { max-width: 42rem; margin: 2rem auto; padding: 0 1rem; line-height: 1.5; }
header { display: flex; justify-content: space-between; align-items: center; margin-bottom: 1.5rem; }
header a { color: #2f6b4f; font-weight: 700; text-decoration: none; font-size: 1.25rem; }
main { background: #fff; border-radius: 12px; padding: 1.5rem; box-shadow: 0 1px 3px rgb(0 0 0 / 8%); }
label { display: block; margin: .75rem 0 .25rem; font-weight: 600; }
input[type=text], input[type=email], input[type=password] { width: 100%; padding: .5rem; border: 1px solid #b9c4bd; border-radius: 6px; font: inherit; box-sizing: border-box; }
button { margin-top: 1rem; padding: .5rem 1rem; border: 0; border-radius: 6px; background: #2f6b4f; color: #fff; font: inherit; cursor: pointer; }
button.secondary { background: #8a3b2c; }
a.button { display: inline-block; margin-top: 1rem; padding: .5rem 1rem; border-radius: 6px; background: #24466b; color: #fff; text-decoration: none; }
table { width: 100%; border-collapse: collapse; margin: .5rem 0 1rem; }
th, td { text-align: left; padding: .4rem .3rem; border-bottom: 1px solid #e3e7e4; vertical-align: top; }
.error { color: #8a3b2c; font-weight: 600; }
.secret { font-family: ui-monospace, monospace; background: #eef4f0; padding: .5rem; border-radius: 6px; word-break: break-all; }
.scopes { margin: 0; padding-left: 1.1rem; }
.test-banner { background: #fff3c4; border: 2px dashed #b8860b; padding: .75rem; border-radius: 8px; }
`;

/** One page: escaped by html-template-tag, so text from people can never become markup. */
export function page(title: string, body: string, signedIn?: { email: string; csrf: string }): string {
  return html`<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${title} · NogPets</title>
  <link rel="stylesheet" href="/static/site.css">
</head>
<body>
  <header>
    <a href="/account">NogPets</a>
    $${
      signedIn
        ? html`<form method="post" action="/signout"><input type="hidden" name="csrf" value="${signedIn.csrf}"><span>${signedIn.email}</span> <button type="submit">Sign out</button></form>`
        : ''
    }
  </header>
  <main>
    <h1>${title}</h1>
    $${body}
  </main>
</body>
</html>`;
}
